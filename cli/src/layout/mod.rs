//! The layout commands: `show`, `analyze` and `svg` of the layouts of a file, read with the
//! same parser as the `layout!` macro, so that the command line and the compiler agree.

pub mod args;
mod coloring;
mod source;

use crate::files::Sink;
use crate::{Done, Failure};
use args::{AnalyzeArgs, PathArg, ShowArgs, SvgArgs};
use coloring::{AccessArg, ColoringArg};
use source::{find, load, resolve, select, traversal};
use swizzle_core::picture::{self, PictureError};
use swizzle_core::report;

/// `show`: the facts and grid of every layout of the file, or of `--layout`.
pub fn show(args: ShowArgs) -> Result<Done, Failure> {
    let file = &args.layouts.file;
    let source = load(file)?;
    let chosen: Vec<usize> = match &args.layouts.layout {
        Some(name) => vec![find(&source.layouts, name, file)?],
        None => (0..source.layouts.len()).collect(),
    };
    let banks = args.banks.map(Option::unwrap_or_default);
    let mut shown = Vec::with_capacity(chosen.len());
    source.shown(&chosen, |index, facts| {
        let checked = &source.layouts[index];
        let mut text = report::show_with(&checked.descriptor, facts, banks, args.element_bytes);
        if let Some(threads) = checked.thread_values() {
            text.push_str(&report::threads(&threads));
        }
        shown.push(text);
    });
    Ok(Done::stdout(shown.join("\n")))
}

/// `analyze`: one access over one layout.
pub fn analyze(args: AnalyzeArgs) -> Result<Done, Failure> {
    let access = AccessArg::parse(args.access)?;
    let file = &args.layouts.file;
    let source = load(file)?;
    let checked = select(&source.layouts, args.layouts.layout.as_deref(), file)?;
    let (access, declared) = resolve(access, &source, file)?;
    let banks = args.banks.or(declared).unwrap_or_default();
    report::analyze(&checked.descriptor, &access, banks, args.line_bytes)
        .map(Done::stdout)
        .map_err(Failure::Input)
}

/// `svg`: the picture of one layout, with its colouring and path.
pub fn svg(args: SvgArgs) -> Result<Done, Failure> {
    let coloring = ColoringArg::new(&args)?;
    let file = &args.layouts.file;
    let source = load(file)?;
    let (path, traversal) = match &args.path {
        None => (None, None),
        Some(PathArg::Memory) => (Some(picture::Path::MemoryOrder), None),
        Some(PathArg::Traversal(name)) => {
            let traversal = traversal(&source, name, file)?;
            let sfc = traversal.checked.sfc.clone();
            (Some(picture::Path::Traversal(sfc)), Some(traversal))
        }
    };
    // A traversal over a layout is drawn over that layout unless told otherwise.
    let walked = traversal.and_then(|t| t.checked.over.as_ref().map(|o| o.to_string()));
    let layout = args.layouts.layout.clone().or(walked);
    let checked = select(&source.layouts, layout.as_deref(), file)?;
    let threads = checked.thread_values();
    let by_thread = coloring.by_thread(threads.is_some());
    let coloring = coloring.resolve(|access| resolve(access, &source, file))?;
    let descriptor = &checked.descriptor;
    let svg = match (&path, threads.filter(|_| by_thread)) {
        (None, Some(threads)) => picture::thread_svg(&threads),
        (Some(_), Some(_)) => {
            return Err(Failure::Input(
                "a thread-value picture draws no path: leave out --path, or colour by bank or \
                 lane"
                    .to_owned(),
            ));
        }
        (_, None) if by_thread => {
            return Err(Failure::Input(format!(
                "`{}` is a layout, not a thread-value layout: --color thread draws `threads` \
                 items",
                descriptor.name
            )));
        }
        (Some(path), None) => picture::svg_with_path(descriptor, &coloring, path),
        (None, None) => picture::svg(descriptor, &coloring),
    }
    .map_err(|error| match (traversal, &error) {
        (Some(traversal), PictureError::TraversalShape { .. }) => Failure::Input(format!(
            "cannot draw traversal `{}` over layout `{}`: {error}",
            traversal.name, descriptor.name
        )),
        _ => Failure::Input(error.to_string()),
    })?;
    match args.output.map(Sink::new) {
        None | Some(Sink::Stdout) => Ok(Done::stdout(svg)),
        Some(sink) => sink.write_bytes(svg.as_bytes()),
    }
}
