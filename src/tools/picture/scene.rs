//! What a picture of a position shows, apart from the board's size: the pieces, the
//! squares the game's own rules restrict (its corners and throne, where it has them), the
//! attackers' forts, the last move and the squares of the soldiers it captured. [`board`](super::board) draws it.

use crate::core::any_square::{AnyMove, AnySquare};
use crate::core::board::Piece;
use crate::core::game::{GameOf, PlyOf};
use crate::core::geometry::Geometry;
use crate::core::notation::RecordMoveOf;
use crate::core::role::Role;
use crate::core::square::SquareOf;

/// A position to draw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Scene {
    /// The board's files (and ranks).
    pub(crate) files: u8,
    /// Every piece on the board, by square.
    pub(crate) pieces: Vec<(AnySquare, Piece)>,
    /// The squares only the king may stop on under the game's rules.
    pub(crate) restricted: Vec<AnySquare>,
    /// The attackers' forts (OpenTafl's `afor`): squares only attacking soldiers that
    /// started on them may stand on or pass.
    pub(crate) forts: Vec<AnySquare>,
    /// The last move of the game, if it has one.
    pub(crate) last_move: Option<AnyMove>,
    /// The squares of the soldiers the last move captured.
    pub(crate) captured: Vec<AnySquare>,
    /// The side to move.
    pub(crate) to_move: Role,
}

impl Scene {
    /// The position of `game` after its moves, with its [`last_move`].
    pub(crate) fn of_game<G: Geometry>(game: &GameOf<G>) -> Scene {
        let board = game.position().board();
        let pieces = SquareOf::<G>::all()
            .filter_map(|sq| board.piece_at(sq).map(|p| (AnySquare::from(sq), p)))
            .collect();
        let restricted = game
            .rules()
            .restricted::<G>()
            .into_iter()
            .map(AnySquare::from)
            .collect();
        let forts = game
            .rules()
            .attacker_forts
            .squares::<G>()
            .into_iter()
            .map(AnySquare::from)
            .collect();
        let last = last_move(game);
        Scene {
            files: G::SIZE,
            pieces,
            restricted,
            forts,
            last_move: last.map(|m| m.mv.into()),
            captured: last.map_or_else(Vec::new, |m| {
                m.captures.into_iter().map(AnySquare::from).collect()
            }),
            to_move: game.to_move(),
        }
    }
}

/// The last move of `game` with the soldiers it captured (a final resignation or loss on
/// time is no move: the move before it is the last).
pub(crate) fn last_move<G: Geometry>(game: &GameOf<G>) -> Option<RecordMoveOf<G>> {
    game.plies().iter().rev().find_map(|ply| match *ply {
        PlyOf::Move { mv, captured } => Some(RecordMoveOf {
            mv,
            captures: captured,
        }),
        PlyOf::Resign(_) | PlyOf::Timeout(_) => None,
    })
}

#[cfg(test)]
mod examples {
    //! The examples of this file's documentation, as unit tests: the items they show are
    //! the crate's own, which a doctest (another crate) cannot reach.

    #[test]
    fn scene_of_game() {
        use crate::core::record::GameRecord;
        use crate::core::rules::RuleSet;
        use crate::tools::picture::scene::Scene;
        let record = GameRecord::from_moves("d1-d3 e5-e2 g1-g3 f4-c4 g3-e3xe2").unwrap();
        let scene = Scene::of_game(&record.replay(RuleSet::default()).unwrap());
        assert_eq!(scene.pieces.len(), 36);
        assert_eq!(scene.restricted.len(), 5);
        assert_eq!(scene.last_move.unwrap().to_string(), "g3-e3");
        assert_eq!(
            scene
                .captured
                .iter()
                .map(|s| s.to_string())
                .collect::<Vec<_>>(),
            ["e2"]
        );
    }
}
