//! Where a session reports the search's progress.

use crate::core::any_square::AnyMove;
use crate::search::Info;

/// Where a session reports the search's progress (one [`Info`] per completed iteration):
/// the caller decides (the `hnefi` binary writes `info` lines to stderr); by default,
/// nowhere.
#[derive(Default)]
pub(crate) struct InfoSink(Option<Box<InfoFn>>);

/// The function an [`InfoSink`] calls.
type InfoFn = dyn FnMut(&Info<AnyMove>) + Send;

impl InfoSink {
    /// A sink that calls `f`.
    pub(super) fn new(f: impl FnMut(&Info<AnyMove>) + Send + 'static) -> InfoSink {
        InfoSink(Some(Box::new(f)))
    }

    /// Reports `info` to the sink's function, if it has one.
    pub(super) fn report(&mut self, info: &Info<AnyMove>) {
        if let Some(f) = self.0.as_mut() {
            f(info);
        }
    }
}

impl std::fmt::Debug for InfoSink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() {
            "InfoSink(set)"
        } else {
            "InfoSink(none)"
        })
    }
}
