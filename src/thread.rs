//! Named threads whose start can fail: the system may refuse a thread (a process or user
//! limit, no memory for its stack), and `std::thread::spawn` then panics. Every thread of
//! the crate starts here instead, and a refusal comes back as a [`SpawnError`] that names
//! the thread, for its caller to report. (The search's pool starts its own threads: a
//! refused one is a thread fewer, [`crate::search::Searcher::threads`].)

use std::io;
use std::thread::{Builder, JoinHandle, Scope, ScopedJoinHandle};

use thiserror::Error;

/// The system refused to start a thread.
#[derive(Debug, Error)]
#[error("cannot start the {name} thread: {source}")]
pub struct SpawnError {
    /// What the thread was for.
    pub(crate) name: &'static str,
    /// The system's refusal.
    #[source]
    pub(crate) source: io::Error,
}

/// Starts `f` on a thread called `name` (shown by debuggers and in panic messages).
pub(crate) fn spawn<F, T>(name: &'static str, f: F) -> Result<JoinHandle<T>, SpawnError>
where
    F: FnOnce() -> T + Send + 'static,
    T: Send + 'static,
{
    Builder::new()
        .name(name.to_string())
        .spawn(f)
        .map_err(|source| SpawnError { name, source })
}

/// Starts `f` on a thread called `name` in `scope` (which joins it before it ends).
pub(crate) fn spawn_scoped<'scope, F, T>(
    scope: &'scope Scope<'scope, '_>,
    name: &'static str,
    f: F,
) -> Result<ScopedJoinHandle<'scope, T>, SpawnError>
where
    F: FnOnce() -> T + Send + 'scope,
    T: Send + 'scope,
{
    Builder::new()
        .name(name.to_string())
        .spawn_scoped(scope, f)
        .map_err(|source| SpawnError { name, source })
}

impl From<SpawnError> for io::Error {
    fn from(e: SpawnError) -> io::Error {
        io::Error::other(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_thread_runs_under_its_name() {
        let handle = spawn("test", || std::thread::current().name().map(str::to_string));
        let name = handle.ok().and_then(|h| h.join().ok()).flatten();
        assert_eq!(name.as_deref(), Some("test"));
    }

    #[test]
    fn a_refusal_names_the_thread() {
        let e = SpawnError {
            name: "reader",
            source: io::Error::other("out of threads"),
        };
        assert_eq!(
            e.to_string(),
            "cannot start the reader thread: out of threads"
        );
    }
}
