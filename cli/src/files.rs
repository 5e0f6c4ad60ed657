//! Reading and writing files without losing data or reading blindly.
//!
//! - An input's length is checked before its data is read: from the file system for a
//!   regular file, and for anything else (a pipe, standard input, `/dev/zero`) by reading at
//!   most one byte more than expected, so that a wrong length is an error naming both
//!   lengths before any allocation that the input's real bytes do not back.
//! - An output file is written to a temporary file in its directory, synced, and renamed
//!   over it only once the whole write succeeded: IN = OUT works, and a failed or killed
//!   write leaves every file as it was.
//! - `-` is standard input (IN) or standard output (OUT).

use crate::{Done, Failure};
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

/// Where a command reads from.
#[derive(Clone, Debug)]
pub enum Source {
    File(PathBuf),
    Stdin,
}

/// Where a command writes to.
#[derive(Clone, Debug)]
pub enum Sink {
    File(PathBuf),
    Stdout,
}

/// How a file is named in messages: its path, or what `-` stands for.
fn name(path: Option<&Path>, standard: &str) -> String {
    path.map_or_else(|| standard.to_owned(), |path| path.display().to_string())
}

impl Source {
    /// `-` is standard input.
    pub fn new(path: PathBuf) -> Source {
        match path == Path::new("-") {
            true => Source::Stdin,
            false => Source::File(path),
        }
    }

    pub fn path(&self) -> Option<&Path> {
        match self {
            Source::File(path) => Some(path),
            Source::Stdin => None,
        }
    }

    pub fn name(&self) -> String {
        name(self.path(), "standard input")
    }

    /// Opens the input, learning its length where the file system knows it.
    pub fn open(&self) -> Result<Input, Failure> {
        let cannot = |e: io::Error| Failure::Input(format!("cannot read {}: {e}", self.name()));
        let (reader, length): (Box<dyn Read>, _) = match self {
            Source::Stdin => (Box::new(io::stdin().lock()), None),
            Source::File(path) => {
                let file = File::open(path).map_err(cannot)?;
                let metadata = file.metadata().map_err(cannot)?;
                let length = metadata.is_file().then_some(metadata.len());
                (Box::new(file), length)
            }
        };
        Ok(Input {
            name: self.name(),
            reader: BufReader::new(reader),
            length,
            consumed: 0,
        })
    }
}

/// An open input: its bytes, counted as they are read.
pub struct Input {
    name: String,
    reader: BufReader<Box<dyn Read>>,
    /// The whole input's length, for a regular file.
    length: Option<u64>,
    consumed: u64,
}

impl Read for Input {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let read = self.reader.read(buf)?;
        self.consumed += read as u64;
        Ok(read)
    }
}

impl Input {
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The bytes left, which must be exactly `expected` (`what` they should hold, in the
    /// error: "the linear surface"). The length is checked before reading where it is
    /// known; otherwise at most `expected + 1` bytes are read, into a buffer that grows
    /// only as real bytes arrive.
    pub fn read_rest(&mut self, expected: usize, what: &str) -> Result<Vec<u8>, Failure> {
        let after = match self.consumed {
            0 => String::new(),
            header => format!(" after its {header}-byte header"),
        };
        let name = self.name.clone();
        let wrong = |found: String| {
            Failure::Input(format!(
                "{name} holds {found} bytes{after}; {what} is {expected}"
            ))
        };
        if let Some(length) = self.length {
            let left = length.saturating_sub(self.consumed);
            if left != expected as u64 {
                return Err(wrong(left.to_string()));
            }
        }
        // Regular files of the right length are read straight into a buffer of that size;
        // other inputs grow theirs from a bounded start.
        let start = match self.length {
            Some(_) => expected,
            None => expected.min(1 << 20),
        };
        // Asked of the allocator, not assumed: a surface larger than the memory the process
        // may have is an error, not an abort.
        let mut bytes = Vec::new();
        bytes
            .try_reserve_exact(start)
            .map_err(|_| Failure::Input(format!("no memory to read {name}: {start} bytes")))?;
        let limit = (expected as u64).saturating_add(1);
        (&mut *self)
            .take(limit)
            .read_to_end(&mut bytes)
            .map_err(|e| Failure::Input(format!("cannot read {name}: {e}")))?;
        match bytes.len().cmp(&expected) {
            std::cmp::Ordering::Equal => Ok(bytes),
            std::cmp::Ordering::Greater => Err(wrong(format!("more than {expected}"))),
            std::cmp::Ordering::Less => Err(wrong(bytes.len().to_string())),
        }
    }

    /// The rest of the input, at most `limit` bytes (a container whose size its header does
    /// not give: a PNG). More is an error naming the limit.
    pub fn read_up_to(&mut self, limit: u64, why: &str) -> Result<Vec<u8>, Failure> {
        let name = self.name.clone();
        let too_long = || {
            Failure::Input(format!(
                "{name} holds more than {limit} bytes, the most {why}"
            ))
        };
        if self.length.is_some_and(|length| length > limit) {
            return Err(too_long());
        }
        let mut bytes = Vec::new();
        (&mut *self)
            .take(limit.saturating_add(1))
            .read_to_end(&mut bytes)
            .map_err(|e| Failure::Input(format!("cannot read {name}: {e}")))?;
        match bytes.len() as u64 > limit {
            true => Err(too_long()),
            false => Ok(bytes),
        }
    }

    /// Reads exactly `buf.len()` bytes of a header; the input ending first is an error.
    pub fn read_header(&mut self, buf: &mut [u8], what: &str) -> Result<(), Failure> {
        self.read_exact(buf)
            .map_err(|e| self.header_error(what, &e))
    }

    /// The error for a header that does not read: the input ends inside it, or its bytes are
    /// not one.
    pub fn header_error(&self, what: &str, error: &(dyn std::error::Error + 'static)) -> Failure {
        let ended = |error: &(dyn std::error::Error + 'static)| {
            error
                .downcast_ref::<io::Error>()
                .is_some_and(|e| e.kind() == io::ErrorKind::UnexpectedEof)
        };
        match ended(error) || error.source().is_some_and(ended) {
            true => Failure::Input(format!(
                "{} ends after {} bytes, inside its {what}",
                self.name, self.consumed
            )),
            false => Failure::Input(format!("{} has no valid {what}: {error}", self.name)),
        }
    }
}

impl Sink {
    /// `-` is standard output.
    pub fn new(path: PathBuf) -> Sink {
        match path == Path::new("-") {
            true => Sink::Stdout,
            false => Sink::File(path),
        }
    }

    pub fn path(&self) -> Option<&Path> {
        match self {
            Sink::File(path) => Some(path),
            Sink::Stdout => None,
        }
    }

    pub fn name(&self) -> String {
        name(self.path(), "standard output")
    }

    /// Writes `bytes`; the status line says where and how many.
    pub fn write_bytes(&self, bytes: &[u8]) -> Result<Done, Failure> {
        self.write_with(|out| out.write_all(bytes))
    }

    /// Writes what `write` writes, whole or not at all; the status line says where and how
    /// many bytes.
    pub fn write_with(
        &self,
        write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
    ) -> Result<Done, Failure> {
        let mut counted = 0;
        let counting = |out: &mut dyn Write| {
            let mut out = Counting {
                inner: out,
                count: &mut counted,
            };
            write(&mut out)?;
            out.flush()
        };
        match self {
            Sink::Stdout => counting(&mut io::stdout().lock()),
            Sink::File(path) => write_file(path, counting),
        }
        .map_err(|e| Failure::Input(format!("cannot write {}: {e}", self.name())))?;
        Ok(Done::status(format!(
            "wrote {} ({counted} bytes)\n",
            self.name()
        )))
    }
}

/// A writer that counts the bytes through it.
struct Counting<'a> {
    inner: &'a mut dyn Write,
    count: &'a mut u64,
}

impl Write for Counting<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let written = self.inner.write(buf)?;
        *self.count += written as u64;
        Ok(written)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// Writes `path` through a temporary file beside it, renamed over it once written and
/// synced. A device or a pipe (`/dev/stdout`, `/dev/null`, a FIFO) has nothing to replace
/// and is written in place; a symbolic link keeps pointing where it did, at the new file.
fn write_file(path: &Path, write: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> io::Result<()> {
    let existing = fs::metadata(path).ok();
    if existing
        .as_ref()
        .is_some_and(|metadata| !metadata.is_file())
    {
        let mut device = OpenOptions::new().write(true).open(path)?;
        return write(&mut device);
    }
    let target = match existing {
        Some(_) => fs::canonicalize(path)?,
        None => path.to_owned(),
    };
    let directory = match target.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let mut builder = tempfile::Builder::new();
    builder.prefix(".swizzle-").suffix(".tmp");
    #[cfg(unix)]
    let permissions = {
        use std::os::unix::fs::PermissionsExt;
        // The replaced file's mode, or a new file's (0666 less the umask).
        let mode = existing.map_or(0o666, |metadata| metadata.permissions().mode());
        fs::Permissions::from_mode(mode)
    };
    #[cfg(unix)]
    builder.permissions(permissions);
    let temporary = builder.tempfile_in(directory)?;
    {
        let mut out = BufWriter::new(temporary.as_file());
        write(&mut out)?;
        out.flush()?;
    }
    temporary.as_file().sync_all()?;
    // On an error the temporary file is removed when dropped, and `path` is as it was.
    temporary.persist(&target).map_err(|e| e.error)?;
    // The rename itself, made durable (best effort: not every file system syncs a directory).
    if let Ok(directory) = File::open(directory) {
        let _ = directory.sync_all();
    }
    Ok(())
}
