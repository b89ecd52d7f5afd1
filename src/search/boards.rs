//! The board sizes the search plays: each [`Geometry`] with the buffers a search node
//! keeps on the stack, sized for that board (the core's geometry has the move list's; the
//! search adds its ordering scores).

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use crate::core::game::GameOf;
use crate::core::geometry::{Geometry, S7, S9, S11, S13, S15};
use crate::core::moves::MoveOf;

use super::network::NetworkOf;
use super::{Info, Limits, Networks, SearchResult, Searcher};

/// A board size the search is monomorphised for.
pub trait SearchGeometry: Geometry {
    /// One ordering score per move of a full move list (four per square).
    type Scores: Copy + AsRef<[i32]> + AsMut<[i32]>;
    /// The scores, all zero.
    const ZERO_SCORES: Self::Scores;

    /// Searches `game` with the knowledge that fits its board and rules: on 11x11 the
    /// Copenhagen search where the rules allow it, else the search of any rules.
    fn search(
        searcher: &mut Searcher,
        game: &GameOf<Self>,
        limits: &Limits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&Info<MoveOf<Self>>),
    ) -> SearchResult<MoveOf<Self>>;

    /// The network of this board size among `nets`.
    fn network(nets: &Networks) -> Option<Arc<NetworkOf<Self>>>;
}

macro_rules! search_geometry {
    ($g:ty, $search:ident, $net:ident) => {
        impl SearchGeometry for $g {
            type Scores = [i32; 4 * <$g as Geometry>::NUM_SQUARES];
            const ZERO_SCORES: Self::Scores = [0; 4 * <$g as Geometry>::NUM_SQUARES];

            #[inline]
            fn search(
                searcher: &mut Searcher,
                game: &GameOf<Self>,
                limits: &Limits,
                stop: &AtomicBool,
                on_info: &mut dyn FnMut(&Info<MoveOf<Self>>),
            ) -> SearchResult<MoveOf<Self>> {
                searcher.$search(game, limits, stop, on_info)
            }

            #[inline]
            fn network(nets: &Networks) -> Option<Arc<NetworkOf<Self>>> {
                nets.$net.clone()
            }
        }
    };
}

search_geometry!(S7, search_any, s7);
search_geometry!(S9, search_any, s9);
search_geometry!(S11, search_11, s11);
search_geometry!(S13, search_any, s13);
search_geometry!(S15, search_any, s15);
