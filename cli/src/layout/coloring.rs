//! `svg`'s colouring: `--color`, `--access`, `--banks` and `--element-bytes` together,
//! checked before the file is read and resolved once it is (a named access is an item of
//! the file).

use super::args::{ColorArg, SvgArgs};
use crate::Failure;
use std::path::Path;
use swizzle_core::analysis::Access;
use swizzle_core::analysis::banks::Banks;
use swizzle_core::picture::Coloring;
use swizzle_syntax::items::access::CheckedAccess;

/// `--access`: an inline SPEC, or the name of an `access` item of the file (resolved once
/// the file is read).
pub enum AccessArg {
    Spec(CheckedAccess),
    Named(String),
}

impl AccessArg {
    /// A bare identifier names an `access` item; anything else is an inline SPEC, parsed and
    /// checked as `layout!` does (its errors are usage errors, located in the SPEC).
    pub fn parse(value: String) -> Result<AccessArg, Failure> {
        if super::args::is_name(&value) {
            return Ok(AccessArg::Named(value));
        }
        swizzle_syntax::access_pattern(&value)
            .map(AccessArg::Spec)
            .map_err(|errors| {
                let shown = crate::diagnostics::render(&errors, Path::new("--access"), &value);
                let shown = shown.trim_end().trim_start_matches("error: ");
                Failure::Usage(format!("--access: {shown}"))
            })
    }
}

/// The colouring options of `svg`, before the file is read.
pub struct ColoringArg {
    by_lane: bool,
    /// `--color thread`: a thread-value layout's threads.
    by_thread: bool,
    /// Whether `--color` or `--access` chose the colouring.
    chosen: bool,
    access: Option<AccessArg>,
    banks: Option<Banks>,
    element_bytes: Option<usize>,
}

impl ColoringArg {
    /// `--color lane` (the default with `--access`) colours by the access's lanes, `--color
    /// bank` by bank, for elements of `--element-bytes` (default: the access's, or 4).
    pub fn new(args: &SvgArgs) -> Result<ColoringArg, Failure> {
        let access = args.access.clone().map(AccessArg::parse).transpose()?;
        let by_lane = match args.color {
            Some(color) => color == ColorArg::Lane,
            None => access.is_some(),
        };
        if by_lane && access.is_none() {
            return Err(Failure::Usage(
                "--color lane needs --access SPEC or --access NAME to know which lane touches \
                 which cell"
                    .to_owned(),
            ));
        }
        Ok(ColoringArg {
            by_lane,
            by_thread: args.color == Some(ColorArg::Thread),
            chosen: args.color.is_some() || access.is_some(),
            access,
            banks: args.banks,
            element_bytes: args.element_bytes,
        })
    }

    /// Whether the picture colours by thread: asked for, or the default for a thread-value
    /// layout when nothing else was asked.
    pub fn by_thread(&self, threads_item: bool) -> bool {
        self.by_thread || (threads_item && !self.chosen)
    }

    /// The colouring, with a named access looked up by `resolve` (which also gives its
    /// declared banks).
    pub fn resolve<E>(
        self,
        resolve: impl Fn(AccessArg) -> Result<(Access, Option<Banks>), E>,
    ) -> Result<Coloring, E> {
        let access = self.access.map(resolve).transpose()?;
        let declared = access.as_ref().and_then(|(_, banks)| *banks);
        let banks = self.banks.or(declared).unwrap_or_default();
        Ok(match access {
            Some((access, _)) if self.by_lane => Coloring::Lane(access),
            access => Coloring::Bank {
                element_bytes: self
                    .element_bytes
                    .or(access.map(|(a, _)| a.element_bytes))
                    .unwrap_or(4),
                banks,
            },
        })
    }
}
