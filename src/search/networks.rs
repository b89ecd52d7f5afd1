//! The learned networks a [`Searcher`](super::Searcher) plays with: at most one per board
//! size, each used by the search of its board ([`NetworkOf`] is of one size).
//!
//! On 11x11 the network is Copenhagen's: it plays in every 11x11 game under Copenhagen's
//! squares, king and escape ([`copenhagen_like`]: copenhagen, hnefatafl-org's 11x11 game,
//! fetlar), whatever their repetition rule, forts and shieldwalls. The search of any other
//! 11x11 rule set (tawlbwrdd, edge escape...) plays with the hand-written evaluation alone:
//! the 11x11 network's data is Copenhagen's games, and its inputs do not know another king
//! or escape. Every other board's network
//! is its own game's (`docs/nets/` says which rules each was trained on), used by the
//! search of any rules on that board.
//!
//! The engine's own ([`Networks::embedded`]) are the files of `docs/nets/` built in:
//! 11x11 always, and each board size that has one.

use std::path::Path;
use std::sync::{Arc, OnceLock};

use crate::core::geometry::{S7, S9, S11, S13, S15, S17, S19};
use crate::core::rules::RuleSet;

use super::network::{self, NetworkError, NetworkOf};

/// True when `rules` have Copenhagen's squares, king and escape (the repetition rule, the
/// referee, shield walls, forts and encirclement may be any): the rules the 11x11
/// network learned.
pub(crate) fn copenhagen_like(rules: &RuleSet) -> bool {
    let c = RuleSet::COPENHAGEN;
    rules.corners == c.corners
        && rules.throne == c.throne
        && rules.king_returns == c.king_returns
        && rules.corner_hostility == c.corner_hostility
        && rules.throne_hostility == c.throne_hostility
        && rules.occupied_throne_hostile == c.occupied_throne_hostile
        && rules.king_capture == c.king_capture
        && rules.king_armed == c.king_armed
        && rules.escape == c.escape
        && rules.linnaean == c.linnaean
}

/// One optional network per board size.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Networks {
    /// 7x7.
    pub(crate) s7: Option<Arc<NetworkOf<S7>>>,
    /// 9x9.
    pub(crate) s9: Option<Arc<NetworkOf<S9>>>,
    /// 11x11 (the Copenhagen search's only).
    pub(crate) s11: Option<Arc<NetworkOf<S11>>>,
    /// 13x13.
    pub(crate) s13: Option<Arc<NetworkOf<S13>>>,
    /// 15x15.
    pub(crate) s15: Option<Arc<NetworkOf<S15>>>,
    /// 17x17.
    pub(crate) s17: Option<Arc<NetworkOf<S17>>>,
    /// 19x19.
    pub(crate) s19: Option<Arc<NetworkOf<S19>>>,
}

/// The 7x7 network built in: `docs/nets/README.md` has the commands that made it.
const EMBEDDED_7: Option<&[u8]> = Some(include_bytes!("../../docs/nets/s23-h7.nnue"));
/// The 13x13 network built in (see [`EMBEDDED_7`]).
const EMBEDDED_13: Option<&[u8]> = Some(include_bytes!("../../docs/nets/s23-h13.nnue"));

/// The network of built-in bytes, read once into `cell` (none if there are none, or if
/// they are not a network of board `G`, which a test rules out).
fn built_in<G: crate::core::geometry::Geometry>(
    cell: &'static OnceLock<Option<Arc<NetworkOf<G>>>>,
    bytes: Option<&[u8]>,
) -> Option<Arc<NetworkOf<G>>> {
    cell.get_or_init(|| {
        bytes
            .and_then(|b| NetworkOf::from_bytes(b).ok())
            .map(Arc::new)
    })
    .clone()
}

impl Networks {
    /// No network: the hand-written evaluation alone on every board.
    pub(crate) fn none() -> Networks {
        Networks::default()
    }

    /// The engine's own: the built-in network of each board size that has one.
    pub(crate) fn embedded() -> Networks {
        static S7_NET: OnceLock<Option<Arc<NetworkOf<S7>>>> = OnceLock::new();
        static S13_NET: OnceLock<Option<Arc<NetworkOf<S13>>>> = OnceLock::new();
        Networks {
            s7: built_in(&S7_NET, EMBEDDED_7),
            s9: None,
            s11: network::embedded(),
            s13: built_in(&S13_NET, EMBEDDED_13),
            s15: None,
            s17: None,
            s19: None,
        }
    }

    /// The networks a `--net` flag (or `set_option net`) asks for: without one the
    /// engine's own, none for `none`, else the engine's own with the file's network in
    /// place of the one of the board size its header names.
    pub(crate) fn chosen(flag: Option<&Path>) -> Result<Networks, NetworkError> {
        match flag {
            None => Ok(Networks::embedded()),
            Some(path) if path.as_os_str() == "none" => Ok(Networks::none()),
            Some(path) => {
                let mut nets = Networks::embedded();
                nets.install_file(path)?;
                Ok(nets)
            }
        }
    }

    /// Reads the network file at `path` and puts it in place of the one of the board
    /// size its header names; returns that size. On an error nothing changes.
    pub(crate) fn install_file(&mut self, path: &Path) -> Result<u8, NetworkError> {
        network::read_file(path, |bytes| self.install_bytes(bytes))
    }

    /// Puts the network of `bytes` in place of the one of the board size its header
    /// names; returns that size. On an error nothing changes.
    pub(crate) fn install_bytes(&mut self, bytes: &[u8]) -> Result<u8, NetworkError> {
        fn read<G: crate::core::geometry::Geometry>(
            bytes: &[u8],
        ) -> Result<Option<Arc<NetworkOf<G>>>, NetworkError> {
            NetworkOf::<G>::from_bytes(bytes).map(|n| Some(Arc::new(n)))
        }
        let size = network::declared_size(bytes)?;
        match size {
            7 => self.s7 = read(bytes)?,
            9 => self.s9 = read(bytes)?,
            11 => self.s11 = read(bytes)?,
            13 => self.s13 = read(bytes)?,
            15 => self.s15 = read(bytes)?,
            17 => self.s17 = read(bytes)?,
            19 => self.s19 = read(bytes)?,
            _ => return Err(NetworkError::Board(size)),
        }
        u8::try_from(size).map_err(|_| NetworkError::Board(size))
    }

    /// The board sizes that have a network, smallest first.
    #[cfg(test)]
    pub(crate) fn sizes(&self) -> Vec<u8> {
        [
            (7, self.s7.is_some()),
            (9, self.s9.is_some()),
            (11, self.s11.is_some()),
            (13, self.s13.is_some()),
            (15, self.s15.is_some()),
            (17, self.s17.is_some()),
            (19, self.s19.is_some()),
        ]
        .into_iter()
        .filter_map(|(n, has)| has.then_some(n))
        .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_goes_to_its_own_board_and_a_bad_one_changes_nothing() {
        let mut nets = Networks::none();
        let seven = NetworkOf::<S7>::random(1, 100);
        assert_eq!(nets.install_bytes(&seven.to_bytes()), Ok(7));
        assert_eq!(nets.s7.as_deref(), Some(&seven));
        assert_eq!(nets.sizes(), vec![7]);
        let thirteen = NetworkOf::<S13>::random(2, 100);
        assert_eq!(nets.install_bytes(&thirteen.to_bytes()), Ok(13));
        assert_eq!(nets.sizes(), vec![7, 13]);
        let before = nets.clone();
        let mut bad = thirteen.to_bytes();
        bad.pop();
        assert!(nets.install_bytes(&bad).is_err());
        assert_eq!(nets, before);
        let mut odd = seven.to_bytes();
        odd[8..12].copy_from_slice(&8u32.to_le_bytes());
        assert_eq!(nets.install_bytes(&odd), Err(NetworkError::Board(8)));
        assert_eq!(nets, before);
        assert!(Networks::chosen(Some(Path::new("none"))).is_ok_and(|n| n.sizes().is_empty()));
    }

    #[test]
    fn the_built_in_networks_are_read() {
        let own = Networks::embedded();
        assert!(own.s11.is_some());
        assert_eq!(own.s7.is_some(), EMBEDDED_7.is_some());
        assert_eq!(own.s13.is_some(), EMBEDDED_13.is_some());
        assert_eq!(own.s9, None);
        assert_eq!(own.s15, None);
        assert_eq!(Networks::chosen(None), Ok(own));
    }

    /// The search of any rules plays a legal move with a network of its board, whose
    /// correction it adds; `--net none`'s search differs.
    fn searches_with_its_board_network<G: crate::search::SearchGeometry>(
        size: crate::core::geometry::BoardSize,
        set: fn(&mut Networks, Option<Arc<NetworkOf<G>>>),
    ) {
        use crate::core::game::GameOf;
        use crate::core::preset::RulePreset;
        use crate::search::{Limits, Searcher};
        use std::sync::atomic::AtomicBool;
        let variant = RulePreset::HnefataflOrg.variant(size).unwrap();
        let start = variant.start_position::<G>().unwrap();
        let game = GameOf::<G>::from_position(start, variant.rules());
        let limits = Limits {
            depth: Some(3),
            ..Limits::default()
        };
        let stop = AtomicBool::new(false);
        let run = |nets: Networks| {
            let mut searcher = Searcher::new(1, 1);
            searcher.set_networks(nets);
            searcher.search(&game, &limits, &stop, &mut |_| {})
        };
        let mut with = Networks::none();
        set(&mut with, Some(Arc::new(NetworkOf::<G>::random(11, 100))));
        let net = run(with);
        let plain = run(Networks::none());
        let legal = game.legal_moves();
        assert!(net.best.is_some_and(|m| legal.contains(&m)), "{size}");
        assert!(plain.best.is_some_and(|m| legal.contains(&m)), "{size}");
        assert_ne!(net.score, plain.score, "{size}");
    }

    #[test]
    fn the_search_of_any_rules_plays_with_its_board_network() {
        use crate::core::geometry::BoardSize;
        searches_with_its_board_network::<S7>(BoardSize::S7, |n, net| n.s7 = net);
        searches_with_its_board_network::<S13>(BoardSize::S13, |n, net| n.s13 = net);
    }

    /// A default searcher has the engine's own networks, and a session refuses a file for
    /// a board hnefi does not play, or not of its header's board, changing nothing.
    #[test]
    fn the_default_searcher_has_the_built_in_networks() {
        let searcher = crate::search::Searcher::default();
        assert_eq!(searcher.networks(), &Networks::embedded());
        let dir = std::env::temp_dir().join(format!("hnefi-networks-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut session = crate::session::Session::new();
        let before = session.networks().clone();
        let mut eight = NetworkOf::<S7>::random(3, 100).to_bytes();
        eight[8..12].copy_from_slice(&8u32.to_le_bytes());
        let mut mixed = NetworkOf::<S7>::random(3, 100).to_bytes();
        mixed[8..12].copy_from_slice(&13u32.to_le_bytes());
        for (name, bytes, message) in [
            ("eight.nnue", eight, "for a 8x8 board; hnefi plays 7x7"),
            (
                "mixed.nnue",
                mixed,
                "inputs and 64 hidden units; this build reads 507",
            ),
        ] {
            let file = dir.join(name);
            std::fs::write(&file, bytes).unwrap();
            let err = session.set_net(file.to_str().unwrap()).unwrap_err();
            assert!(err.to_string().contains(message), "{err}");
            assert_eq!(session.networks(), &before);
        }
        let seven = dir.join("seven.nnue");
        let net = NetworkOf::<S7>::random(4, 100);
        std::fs::write(&seven, net.to_bytes()).unwrap();
        assert_eq!(session.set_net(seven.to_str().unwrap()).ok(), Some(Some(7)));
        assert_eq!(session.networks().s7.as_deref(), Some(&net));
        assert_eq!(session.networks().s11, before.s11);
        assert_eq!(session.set_net("none").ok(), Some(None));
        assert!(session.networks().sizes().is_empty());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
