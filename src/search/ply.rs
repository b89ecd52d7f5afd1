//! How deep a search's path may grow: the one bound that every per-ply table of the
//! search (killers, principal variations, the network's sums along the path) is sized by.

/// Maximum search ply the per-ply tables cover.
pub(crate) const MAX_PLY: usize = 128;
