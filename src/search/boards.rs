//! The board sizes the search plays: each [`Geometry`] with the buffers a search node
//! keeps on the stack, sized for that board (the core's geometry has the move list's; the
//! search adds its ordering scores).

use std::sync::Arc;

use crate::core::geometry::{Geometry, S7, S9, S11, S13, S15, S17, S19};

use super::Networks;
use super::network::NetworkOf;

/// A board size the search is monomorphised for.
pub trait SearchGeometry: Geometry {
    /// One ordering score per move of a full move list (four per square).
    type Scores: Copy + AsRef<[i32]> + AsMut<[i32]>;
    /// The scores, all zero.
    const ZERO_SCORES: Self::Scores;

    /// The network of this board size among `nets`.
    fn network(nets: &Networks) -> Option<Arc<NetworkOf<Self>>>;
}

macro_rules! search_geometry {
    ($g:ty, $net:ident) => {
        impl SearchGeometry for $g {
            type Scores = [i32; 4 * <$g as Geometry>::NUM_SQUARES];
            const ZERO_SCORES: Self::Scores = [0; 4 * <$g as Geometry>::NUM_SQUARES];

            #[inline]
            fn network(nets: &Networks) -> Option<Arc<NetworkOf<Self>>> {
                nets.$net.clone()
            }
        }
    };
}

search_geometry!(S7, s7);
search_geometry!(S9, s9);
search_geometry!(S11, s11);
search_geometry!(S13, s13);
search_geometry!(S15, s15);
search_geometry!(S17, s17);
search_geometry!(S19, s19);
