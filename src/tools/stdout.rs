//! A command's results on stdout without a panic: `println!` panics when the reader has
//! gone (`hnefi bench | head -1`) or the output cannot be written (a full disk).

use std::fmt;
use std::io::{self, Write};
use std::process;

/// Writes `args` and a newline to stdout, as [`text`] does.
pub(crate) fn line(args: fmt::Arguments) {
    write(|out| out.write_fmt(args).and_then(|()| out.write_all(b"\n")));
}

/// Writes `s` to stdout as it is. When the reader has gone (a closed pipe) the program
/// ends at once with success, as the pipeline asked for no more; on any other write error
/// it ends with the error on stderr and status 2.
pub(crate) fn text(s: &str) {
    write(|out| out.write_all(s.as_bytes()));
}

fn write(f: impl FnOnce(&mut io::StdoutLock) -> io::Result<()>) {
    let mut out = io::stdout().lock();
    if let Err(e) = f(&mut out).and_then(|()| out.flush()) {
        if e.kind() == io::ErrorKind::BrokenPipe {
            process::exit(0);
        }
        // stderr may be gone as well: nothing more can be said then.
        let _ = writeln!(io::stderr(), "hnefi: cannot write the output: {e}");
        process::exit(2);
    }
}

/// `println!` through [`line`].
#[macro_export]
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::tools::stdout::line(format_args!($($arg)*))
    };
}
