//! `swizzle`: pictures and analyses of layouts written as text, read with the same parser as
//! the `layout!` macro, so that the command line and the compiler always agree; and texture
//! surfaces tiled and untiled as consoles store them, in DDS, PNG and raw files.
//!
//! Exit codes: 0 on success, 1 when the input is wrong (a file that does not read or parse,
//! an unknown layout or traversal, an access or traversal that does not fit the layout, a
//! texture file of the wrong length, a header a flag contradicts, a surface its platform
//! does not tile), 2 when the command line is.

mod cli;
mod diagnostics;
mod files;
mod layout;
mod numbers;
mod texture;

use clap::Parser;
use cli::{Cli, Command};
use std::io::Write;
use std::process::ExitCode;

/// Makes a write past the process's file-size limit (`ulimit -f`) an error the command
/// reports, removing its temporary file, rather than `SIGXFSZ`, which ends the process
/// before it can.
#[cfg(unix)]
fn report_oversized_writes() {
    // SAFETY: `signal` with `SIG_IGN` installs no handler (no code of ours runs on the
    // signal) and is called before any thread starts; the write then fails with `EFBIG`.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
}

#[cfg(not(unix))]
fn report_oversized_writes() {}

/// Why a command failed.
pub(crate) enum Failure {
    /// The command line is wrong: exit 2 with the failing subcommand's usage.
    Usage(String),
    /// The input is wrong: exit 1 with the message.
    Input(String),
    /// The file does not parse or check: exit 1 with the rendered diagnostics.
    Parse(String),
}

/// What a command that succeeded leaves: its output for standard output, and status lines
/// ("wrote …") for standard error, so that they never land in the data.
#[derive(Default)]
pub(crate) struct Done {
    stdout: String,
    status: String,
}

impl Done {
    pub fn stdout(text: String) -> Done {
        Done {
            stdout: text,
            status: String::new(),
        }
    }

    pub fn status(text: String) -> Done {
        Done {
            stdout: String::new(),
            status: text,
        }
    }

    /// Both commands' output, `self`'s first.
    pub fn and(mut self, then: Done) -> Done {
        self.stdout.push_str(&then.stdout);
        self.status.push_str(&then.status);
        self
    }
}

fn main() -> ExitCode {
    report_oversized_writes();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // Help and --version (exit 0, standard output) and clap's usage errors (exit 2).
        Err(error) if !error.use_stderr() => return print_clap(&error),
        Err(error) => {
            let args: Vec<String> = std::env::args().collect();
            let _ = std::io::stderr().write_all(cli::render_clap_error(&error, &args).as_bytes());
            return ExitCode::from(2);
        }
    };
    let path = cli.command.path();
    let result = match cli.command {
        Command::Show(args) => layout::show(args),
        Command::Analyze(args) => layout::analyze(args),
        Command::Svg(args) => layout::svg(args),
        Command::Texture(command) => texture::run(command),
    };
    let (done, failure) = match result {
        Ok(done) => (done, None),
        Err(failure) => (Done::default(), Some(failure)),
    };
    // A closed pipe (`swizzle show big.layout | head`) is not an error worth a panic.
    let _ = std::io::stdout().write_all(done.stdout.as_bytes());
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().write_all(done.status.as_bytes());
    match failure {
        None => ExitCode::SUCCESS,
        Some(Failure::Usage(message)) => print_clap(&cli::usage_error(&path, &message)),
        Some(Failure::Input(message)) => {
            let _ = writeln!(std::io::stderr(), "error: {message}");
            ExitCode::from(1)
        }
        Some(Failure::Parse(diagnostics)) => {
            let _ = std::io::stderr().write_all(diagnostics.as_bytes());
            ExitCode::from(1)
        }
    }
}

/// Prints clap's message where clap prints it; its exit code.
fn print_clap(error: &clap::Error) -> ExitCode {
    let _ = error.print();
    ExitCode::from(u8::try_from(error.exit_code()).unwrap_or(2))
}
