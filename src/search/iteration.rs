//! The outcome of one iteration of the search at the root, as the threads share it.

use crate::core::moves::MoveOf;

use super::boards::SearchGeometry;

/// The outcome of one iteration at the root.
#[derive(Clone, Debug)]
pub(crate) struct Iteration<G: SearchGeometry> {
    /// Score for the side to move.
    pub(crate) score: i32,
    /// Principal variation.
    pub(crate) pv: Vec<MoveOf<G>>,
}
