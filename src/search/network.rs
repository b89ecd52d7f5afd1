//! A learned correction to the evaluation: a small network over where the pieces stand,
//! in the style of chess engines' NNUE, whose output is added to the hand-written terms
//! of [`eval`](super::eval) (a residual: the network learns what those terms miss, and a
//! network whose output weights are zero changes nothing).
//!
//! A network belongs to one board size ([`NetworkOf`], generic over the [`Geometry`] as the
//! core is, so that the 11x11 search keeps its constant sizes and no dynamic dispatch).
//! Its input is one bit per piece and square ([`inputs_of`]: the attackers, the defender
//! soldiers and the king on each square; [`INPUTS`] on 11x11); one hidden layer of
//! [`HIDDEN`] clipped-linear units; one output (head) per side to move, in centi-units
//! from the defenders' point of view: what a search finds beyond the static evaluation
//! depends on who moves first. Inference is in integers: the first layer's weights are
//! whole multiples of `1 / QA` of an activation, the output weights of `1 / (QA · QB)` of
//! a centi-unit. This file holds the weights; the inference, from the hidden layer's sums
//! ([`NetworkOf::evaluate`] among it), is [`accumulator`](super::accumulator)'s, where
//! the search keeps the sums along its path and updates them by the pieces a move
//! changes.
//!
//! The file format ([`NetworkOf::from_bytes`], [`NetworkOf::to_bytes`]), little-endian,
//! one for every board: the magic `HNEFINN2`, the board's files, the number of inputs and
//! of hidden units (`u32` each), then the first layer's weights (`i16`, input by input,
//! the hidden units of each together), its biases (`i16`), the output weights (`i16`, the
//! defenders-to-move head, then the attackers'), the output biases (`i32`, the same
//! order, in centi-units). `hnefi train` writes it. The first 11x11 networks were written
//! in a legacy form without the board's files (magic `HNEFINN1`, module `legacy`), which is
//! still read, as the same network, so that they (the engine's own among them) keep
//! loading.

use std::marker::PhantomData;
use std::sync::{Arc, OnceLock};

use crate::core::bitboard::BitboardOf;
use crate::core::board::BoardOf;
use crate::core::geometry::{Geometry, S11};
use crate::core::role::Role;
use crate::core::square::SquareOf;

/// The inputs of an 11x11 network: one per kind of piece (attacker, defender soldier,
/// king) and square.
#[cfg(test)]
pub(crate) const INPUTS: usize = 3 * S11::NUM_SQUARES;

/// The hidden units.
pub(crate) const HIDDEN: usize = 64;
/// A hidden unit's full activation (1) in the integer first layer.
pub(crate) const QA: i32 = 127;
/// The scale of the output weights beyond `QA`.
pub(crate) const QB: i32 = 32;
/// The largest output bias a file may hold, in centi-units.
pub(crate) const MAX_BIAS: i32 = 10_000;
/// The largest first-layer weight or bias an 11x11 file may hold: with at most 37 pieces
/// on the board (Copenhagen's start, the only 11x11 game the network plays), a hidden
/// unit's sum stays within an `i16` (38 · 800 < 32,767), so it is summed in 16 bits,
/// twice as many lanes per vector instruction as 32.
pub(crate) const MAX_W1: i16 = 800;

/// The 11x11 network, the one the Copenhagen search plays with.
pub type Network = NetworkOf<S11>;

const MAGIC: &[u8; 8] = b"HNEFINN2";

/// The length of an 11x11 network file.
#[cfg(test)]
pub(crate) const FILE_LEN: usize = file_len::<S11>();
/// Where a file's shape (the inputs and hidden units, `u32` each) starts: after the magic
/// and the board's files.
const SHAPE_AT: usize = 8 + 4;
/// The length of a file's header: up to the shape, and the shape.
const HEADER_LEN: usize = SHAPE_AT + 2 * 4;

/// The inputs of a network for board `G`: three per square.
pub(crate) const fn inputs_of<G: Geometry>() -> usize {
    3 * G::NUM_SQUARES
}

/// The largest first-layer weight or bias a network for board `G` may hold, so that a
/// hidden unit's sum over every piece and its bias stays within an `i16` (see
/// [`MAX_W1`]): on 11x11 for Copenhagen's 37 pieces, on other boards for a piece on
/// every square, whatever the game.
pub(crate) const fn max_w1_of<G: Geometry>() -> i16 {
    if G::SIZE == 11 {
        MAX_W1
    } else {
        let bound = i16::MAX as usize / (G::NUM_SQUARES + 1);
        if bound < MAX_W1 as usize {
            bound as i16
        } else {
            MAX_W1
        }
    }
}

/// The length of a network file for board `G`.
pub(crate) const fn file_len<G: Geometry>() -> usize {
    HEADER_LEN + 2 * (inputs_of::<G>() * HIDDEN + HIDDEN + 2 * HIDDEN) + 4 * 2
}

/// Why bytes are not a network.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NetworkError {
    /// The file does not start with the magic bytes.
    #[error(
        "not a hnefi network file (it does not start with HNEFINN2, or HNEFINN1 in the legacy 11x11 form)"
    )]
    Magic,
    /// The file is a network for another board.
    #[error("the network is for a {file}x{file} board, not {board}x{board}")]
    Size {
        /// The board's files the network declares.
        file: u32,
        /// The board's files it was read for.
        board: u8,
    },
    /// The file names a board size the engine does not play.
    #[error(
        "the network is for a {0}x{0} board; hnefi plays 7x7, 9x9, 11x11, 13x13, 15x15, 17x17 and 19x19"
    )]
    Board(u32),
    /// The file's sizes are not this build's.
    #[error(
        "the network has {inputs} inputs and {hidden} hidden units; this build reads {expected} and {HIDDEN}"
    )]
    Shape {
        /// The inputs the file declares.
        inputs: u32,
        /// The hidden units the file declares.
        hidden: u32,
        /// The inputs of the board's networks.
        expected: usize,
    },
    /// The file is shorter or longer than its shape says.
    #[error("the network file has {0} bytes, expected {1}")]
    Length(usize, usize),
    /// A first-layer weight or bias beyond the board's bound ([`max_w1_of`]).
    #[error("a first-layer weight of {0} (at most {1} either way)")]
    Weight(i16, i16),
    /// An output bias beyond [`MAX_BIAS`].
    #[error("an output bias of {0} centi-units (at most {MAX_BIAS} either way)")]
    Bias(i32),
    /// The file cannot be read.
    #[error("cannot read the network {path}: {message}")]
    Read {
        /// The file.
        path: String,
        /// The system's reason.
        message: String,
    },
    /// The file can be read but is not a network.
    #[error("the network {path}: {source}")]
    File {
        /// The file.
        path: String,
        /// Why it is not a network.
        source: Box<NetworkError>,
    },
}

/// The board size (files) a network file's bytes declare, from its header alone (11 for
/// the `legacy` form).
pub(crate) fn declared_size(bytes: &[u8]) -> Result<u32, NetworkError> {
    header(bytes).map(|(size, _)| size)
}

/// The board's files a file's header declares, and the length of the header before the
/// shape (the inputs and hidden units): the magic and the board's files, or the magic
/// alone in the `legacy` form.
fn header(bytes: &[u8]) -> Result<(u32, usize), NetworkError> {
    let mut r = Reader { bytes, at: 0 };
    match r.take(8) {
        Some(m) if m == &MAGIC[..] => r
            .u32()
            .map(|size| (size, SHAPE_AT))
            .ok_or(NetworkError::Length(bytes.len(), SHAPE_AT)),
        Some(m) if m == &legacy::MAGIC[..] => Ok((legacy::SIZE, legacy::SHAPE_AT)),
        _ => Err(NetworkError::Magic),
    }
}

/// The legacy form of the first 11x11 networks, read and never written: the format less
/// the board's files (its header is the magic `HNEFINN1`, then the inputs and the hidden
/// units), from before networks of other boards. The engine's own 11x11 network and most
/// of `docs/nets/` are in it; they read as the same networks as in the format.
mod legacy {
    /// The first bytes of a legacy file.
    pub(super) const MAGIC: &[u8; 8] = b"HNEFINN1";
    /// The board of every legacy file.
    pub(super) const SIZE: u32 = 11;
    /// Where its shape starts: after the magic.
    pub(super) const SHAPE_AT: usize = 8;
}

/// The input of a piece of kind `kind` on the square of index `square` of board `G`.
#[inline]
pub(crate) fn input_of<G: Geometry>(kind: usize, square: usize) -> usize {
    kind * G::NUM_SQUARES + square
}

/// Input `i` of an 11x11 network under one of the board's 8 symmetries.
#[cfg(test)]
pub(crate) fn transform_input(i: usize, sym: u8) -> usize {
    transform_input_of::<S11>(i, sym)
}
/// Input `i` of a network for board `G` under one of the board's 8 symmetries (`sym`, see
/// [`SquareOf::transform`]): the same kind of piece on the transformed square; an index
/// past the inputs is kept.
pub(crate) fn transform_input_of<G: Geometry>(i: usize, sym: u8) -> usize {
    let (kind, index) = (i / G::NUM_SQUARES, i % G::NUM_SQUARES);
    match SquareOf::<G>::new(index) {
        Some(sq) if kind < 3 => input_of::<G>(kind, sq.transform(sym).index()),
        _ => i,
    }
}

/// The active inputs of a board, in the order attackers, defenders, king.
pub(crate) fn inputs<G: Geometry>(board: &BoardOf<G>) -> impl Iterator<Item = usize> {
    pieces(board)
        .into_iter()
        .enumerate()
        .flat_map(|(kind, bb)| {
            bb.into_iter()
                .map(move |sq| input_of::<G>(kind, sq.index()))
        })
}

/// The output head of a side.
#[inline]
pub(crate) fn head(side: Role) -> usize {
    match side {
        Role::Defender => 0,
        Role::Attacker => 1,
    }
}

/// The integer network of one board size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetworkOf<G: Geometry> {
    w1: Box<[[i16; HIDDEN]]>,
    b1: [i16; HIDDEN],
    w2: [[i16; HIDDEN]; 2],
    b2: [i32; 2],
    board: PhantomData<G>,
}

impl<G: Geometry> NetworkOf<G> {
    /// A network of these weights: `w1` one row per input (missing rows are zero, extra
    /// ones ignored), first-layer weights and biases kept within the board's bound
    /// ([`max_w1_of`]), output biases within [`MAX_BIAS`].
    pub(crate) fn new(
        w1: &[[i16; HIDDEN]],
        b1: [i16; HIDDEN],
        w2: [[i16; HIDDEN]; 2],
        b2: [i32; 2],
    ) -> NetworkOf<G> {
        let limit = max_w1_of::<G>();
        let clip = |w: i16| w.clamp(-limit, limit);
        let mut rows = vec![[0i16; HIDDEN]; inputs_of::<G>()];
        for (row, w) in rows.iter_mut().zip(w1) {
            *row = w.map(clip);
        }
        NetworkOf {
            w1: rows.into_boxed_slice(),
            b1: b1.map(clip),
            w2,
            b2: b2.map(|b| b.clamp(-MAX_BIAS, MAX_BIAS)),
            board: PhantomData,
        }
    }

    /// The network of a file's bytes, which must be a network for board `G` (in the
    /// format, or on 11x11 in the `legacy` form).
    pub fn from_bytes(bytes: &[u8]) -> Result<NetworkOf<G>, NetworkError> {
        let (size, shape_at) = header(bytes)?;
        if size != u32::from(G::SIZE) {
            return Err(NetworkError::Size {
                file: size,
                board: G::SIZE,
            });
        }
        // A legacy header is shorter by the board's files.
        let expected = file_len::<G>() - (SHAPE_AT - shape_at);
        let short = || NetworkError::Length(bytes.len(), expected);
        let mut r = Reader {
            bytes,
            at: shape_at,
        };
        let (inputs, hidden) = match (r.u32(), r.u32()) {
            (Some(i), Some(h)) => (i, h),
            _ => return Err(short()),
        };
        let n_inputs = inputs_of::<G>();
        if inputs as usize != n_inputs || hidden as usize != HIDDEN {
            return Err(NetworkError::Shape {
                inputs,
                hidden,
                expected: n_inputs,
            });
        }
        if bytes.len() != expected {
            return Err(short());
        }
        let mut w1 = vec![[0i16; HIDDEN]; n_inputs];
        for row in w1.iter_mut() {
            *row = r.i16s().ok_or_else(short)?;
        }
        let b1 = r.i16s().ok_or_else(short)?;
        let w2 = [r.i16s().ok_or_else(short)?, r.i16s().ok_or_else(short)?];
        let b2 = [r.i32().ok_or_else(short)?, r.i32().ok_or_else(short)?];
        let limit = max_w1_of::<G>();
        if let Some(&w) = w1
            .iter()
            .chain(std::iter::once(&b1))
            .flatten()
            .find(|w| w.unsigned_abs() > limit.unsigned_abs())
        {
            return Err(NetworkError::Weight(w, limit));
        }
        if let Some(&b) = b2.iter().find(|b| b.abs() > MAX_BIAS) {
            return Err(NetworkError::Bias(b));
        }
        Ok(NetworkOf {
            w1: w1.into_boxed_slice(),
            b1,
            w2,
            b2,
            board: PhantomData,
        })
    }

    /// The file's bytes of the network, in the format.
    pub(crate) fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(file_len::<G>());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&u32::from(G::SIZE).to_le_bytes());
        out.extend_from_slice(&(inputs_of::<G>() as u32).to_le_bytes());
        out.extend_from_slice(&(HIDDEN as u32).to_le_bytes());
        let rows = self
            .w1
            .iter()
            .chain(std::iter::once(&self.b1))
            .chain(self.w2.iter());
        for v in rows.flatten() {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for b in self.b2 {
            out.extend_from_slice(&b.to_le_bytes());
        }
        out
    }

    /// The first layer's biases: the sums of an empty board.
    #[inline]
    pub(super) fn biases(&self) -> [i16; HIDDEN] {
        self.b1
    }

    /// The first layer's weights of input `i` (none past the board's inputs).
    #[inline]
    pub(super) fn weights_of(&self, i: usize) -> Option<&[i16; HIDDEN]> {
        self.w1.get(i)
    }

    /// The output weights and bias of `side`'s head.
    #[inline]
    pub(super) fn head_of(&self, side: Role) -> Option<(&[i16; HIDDEN], i32)> {
        let h = head(side);
        Some((self.w2.get(h)?, *self.b2.get(h)?))
    }
}

/// A board's pieces by kind, in the order of the inputs.
#[inline]
pub(super) fn pieces<G: Geometry>(board: &BoardOf<G>) -> [BitboardOf<G>; 3] {
    [board.attackers(), board.defenders(), board.king_bb()]
}

/// The file of the network the engine plays with unless told otherwise (`--net`), from
/// the crate's root; `docs/nets/`, where the commands that make it are, says which it is.
/// A macro because `include_bytes!` takes a literal: [`EMBEDDED_FILE`] and [`EMBEDDED`]
/// then name the same file, written once.
macro_rules! embedded_file {
    () => {
        "docs/nets/s37-g6r.nnue"
    };
}

/// The engine's own network's file, from the crate's root, for the tests that compare it
/// with `--net FILE`.
pub const EMBEDDED_FILE: &str = embedded_file!();

/// The engine's own network's bytes, built in.
const EMBEDDED: &[u8] = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/", embedded_file!()));

/// The engine's own network ([`EMBEDDED`]), read once.
pub(crate) fn embedded() -> Option<Arc<Network>> {
    static NET: OnceLock<Option<Arc<Network>>> = OnceLock::new();
    NET.get_or_init(|| Network::from_bytes(EMBEDDED).ok().map(Arc::new))
        .clone()
}

/// Reads little-endian numbers from the front of a byte slice.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let end = self.at.checked_add(n)?;
        let out = self.bytes.get(self.at..end)?;
        self.at = end;
        Some(out)
    }

    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }

    fn i32(&mut self) -> Option<i32> {
        Some(i32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }

    fn i16s(&mut self) -> Option<[i16; HIDDEN]> {
        let raw = self.take(2 * HIDDEN)?;
        let mut out = [0i16; HIDDEN];
        for (v, b) in out.iter_mut().zip(raw.chunks_exact(2)) {
            *v = i16::from_le_bytes(b.try_into().ok()?);
        }
        Some(out)
    }
}

/// Reads the network file at `path` and makes what `parse` makes of its bytes; the errors
/// name the file.
pub(crate) fn read_file<T>(
    path: &std::path::Path,
    parse: impl FnOnce(&[u8]) -> Result<T, NetworkError>,
) -> Result<T, NetworkError> {
    let name = || path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| NetworkError::Read {
        path: name(),
        message: e.to_string(),
    })?;
    parse(&bytes).map_err(|e| NetworkError::File {
        path: name(),
        source: Box::new(e),
    })
}

#[cfg(test)]
impl<G: Geometry> NetworkOf<G> {
    /// A network of random weights, its first layer's within `limit` either way.
    pub(crate) fn random(seed: u64, limit: i16) -> NetworkOf<G> {
        let mut rng = crate::core::rng::SplitMix64::new(seed);
        let span = 2 * limit.unsigned_abs() as usize + 1;
        let mut small = || rng.below(span) as i16 - limit;
        let w1: Vec<[i16; HIDDEN]> = (0..inputs_of::<G>())
            .map(|_| std::array::from_fn(|_| small()))
            .collect();
        let b1 = std::array::from_fn(|_| small());
        let mut out = || small().clamp(-200, 200) * 100;
        let w2 = [
            std::array::from_fn(|_| out()),
            std::array::from_fn(|_| out()),
        ];
        NetworkOf::new(&w1, b1, w2, [12, -34])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::board::Board;
    use crate::core::geometry::{S7, S13, S15};
    use crate::core::rng::SplitMix64;

    #[test]
    fn the_embedded_network_is_read() {
        assert!(embedded().is_some());
    }

    #[test]
    fn inputs_follow_the_board_under_its_symmetries() {
        for pos in crate::tune::texel::tests::random_positions(50, 7) {
            for sym in 0..8 {
                let mut moved: Vec<usize> = inputs(pos.board())
                    .map(|i| transform_input(i, sym))
                    .collect();
                let mut direct: Vec<usize> = inputs(&pos.board().transform(sym)).collect();
                moved.sort_unstable();
                direct.sort_unstable();
                assert_eq!(moved, direct, "symmetry {sym}");
            }
        }
        // Every symmetry is a bijection of the inputs.
        for sym in 0..8 {
            let mut images: Vec<usize> = (0..INPUTS).map(|i| transform_input(i, sym)).collect();
            images.sort_unstable();
            assert!(images.iter().copied().eq(0..INPUTS), "symmetry {sym}");
        }
        assert_eq!(transform_input(INPUTS, 3), INPUTS);
    }

    #[test]
    fn bytes_round_trip() {
        let net = Network::random(1, 200);
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), FILE_LEN);
        assert_eq!(Network::from_bytes(&bytes), Ok(net));
    }

    #[test]
    fn bad_files_are_refused() {
        let bytes = Network::random(2, 200).to_bytes();
        assert_eq!(Network::from_bytes(&[]), Err(NetworkError::Magic));
        assert_eq!(
            Network::from_bytes(&bytes[..8]),
            Err(NetworkError::Length(8, 12))
        );
        assert_eq!(
            Network::from_bytes(&bytes[..16]),
            Err(NetworkError::Length(16, FILE_LEN))
        );
        let cut = bytes.len() - 1;
        assert_eq!(
            Network::from_bytes(&bytes[..cut]),
            Err(NetworkError::Length(cut, FILE_LEN))
        );
        let mut longer = bytes.clone();
        longer.push(0);
        assert_eq!(
            Network::from_bytes(&longer),
            Err(NetworkError::Length(FILE_LEN + 1, FILE_LEN))
        );
        let mut shape = bytes.clone();
        shape[16] = 65;
        assert_eq!(
            Network::from_bytes(&shape),
            Err(NetworkError::Shape {
                inputs: INPUTS as u32,
                hidden: 65,
                expected: INPUTS
            })
        );
        let mut weight = bytes.clone();
        weight[20..22].copy_from_slice(&801i16.to_le_bytes());
        assert_eq!(
            Network::from_bytes(&weight),
            Err(NetworkError::Weight(801, MAX_W1))
        );
        let mut bias = bytes;
        let at = FILE_LEN - 4;
        bias[at..].copy_from_slice(&20_000i32.to_le_bytes());
        assert_eq!(Network::from_bytes(&bias), Err(NetworkError::Bias(20_000)));
    }

    /// Any bytes are a network or an error, never a panic.
    #[test]
    fn random_bytes_never_panic() {
        let mut rng = SplitMix64::new(3);
        let net = Network::random(3, 200);
        for good in [net.to_bytes(), legacy_bytes(&net)] {
            let len = good.len();
            for _ in 0..1000 {
                let mut bytes = good.clone();
                for _ in 0..1 + rng.below(4) {
                    let i = rng.below(bytes.len());
                    if let Some(b) = bytes.get_mut(i) {
                        *b = rng.below(256) as u8;
                    }
                }
                bytes.truncate(rng.below(len + 1).max(len - rng.below(3)));
                if let Ok(net) = Network::from_bytes(&bytes) {
                    net.evaluate(&Board::start(), Role::Attacker);
                }
            }
        }
    }

    /// The integer sum by hand on a board with one attacker.
    #[test]
    fn evaluation_is_the_clipped_sum() {
        let mut w1 = vec![[0i16; HIDDEN]; INPUTS];
        let mut b1 = [0i16; HIDDEN];
        b1[0] = 50;
        b1[1] = -10;
        let start = Board::start();
        // Every attacker adds 10 to unit 0; the king adds 200 to unit 1 (clipped at QA).
        for i in inputs(&start) {
            if i < S11::NUM_SQUARES {
                w1[i][0] = 10;
            } else if i >= 2 * S11::NUM_SQUARES {
                w1[i][1] = 200;
            }
        }
        let mut w2 = [[0i16; HIDDEN]; 2];
        w2[0][0] = 64;
        w2[1][1] = -QB as i16;
        let net = Network::new(&w1, b1, w2, [5, 7]);
        // 24 attackers: unit 0 = 50 + 240 = 290, clipped to 127; unit 1 = 190 -> 127.
        assert_eq!(
            net.evaluate(&start, Role::Defender),
            (QA * 64) / (QA * QB) + 5
        );
        assert_eq!(net.evaluate(&start, Role::Attacker), -1 + 7);
        // A zero network changes nothing.
        let zero = Network::new(&[], [0; HIDDEN], [[0; HIDDEN]; 2], [0, 0]);
        assert_eq!(zero.evaluate(&start, Role::Attacker), 0);
    }

    #[test]
    fn other_boards_have_sized_files() {
        let net = NetworkOf::<S7>::random(4, max_w1_of::<S7>());
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), file_len::<S7>());
        assert_eq!(file_len::<S7>(), 20 + 2 * (147 * HIDDEN + 3 * HIDDEN) + 8);
        assert!(bytes.starts_with(b"HNEFINN2"));
        assert_eq!(declared_size(&bytes), Ok(7));
        assert_eq!(NetworkOf::<S7>::from_bytes(&bytes), Ok(net));
        // A network is read for its own board only.
        assert_eq!(
            Network::from_bytes(&bytes),
            Err(NetworkError::Size { file: 7, board: 11 })
        );
        let eleven = Network::random(5, 200).to_bytes();
        assert_eq!(declared_size(&eleven), Ok(11));
        assert_eq!(
            NetworkOf::<S7>::from_bytes(&eleven),
            Err(NetworkError::Size { file: 11, board: 7 })
        );
        assert_eq!(
            NetworkError::Size { file: 11, board: 7 }.to_string(),
            "the network is for a 11x11 board, not 7x7"
        );
        // A first-layer weight past the board's bound.
        let mut weight = bytes;
        let over = max_w1_of::<S7>() + 1;
        weight[20..22].copy_from_slice(&over.to_le_bytes());
        assert_eq!(
            NetworkOf::<S7>::from_bytes(&weight),
            Err(NetworkError::Weight(over, max_w1_of::<S7>()))
        );
        assert_eq!(
            declared_size(b"HNEFINN2\x07"),
            Err(NetworkError::Length(9, 12))
        );
    }

    /// The bytes of `net` in the legacy form: the legacy magic, no board's files.
    fn legacy_bytes(net: &Network) -> Vec<u8> {
        let bytes = net.to_bytes();
        let mut legacy = b"HNEFINN1".to_vec();
        legacy.extend_from_slice(bytes.get(12..).unwrap_or_default());
        legacy
    }

    /// Every network is written in the one format, an 11x11 one too; a legacy 11x11 file
    /// reads as the same network, and as no network of another board.
    #[test]
    fn one_format_is_written_and_legacy_files_read_as_the_same_network() {
        let net = Network::random(6, 200);
        let bytes = net.to_bytes();
        assert!(bytes.starts_with(b"HNEFINN2"));
        assert_eq!(bytes.get(8..12), Some(&11u32.to_le_bytes()[..]));
        assert_eq!(bytes.len(), file_len::<S11>());
        let legacy = legacy_bytes(&net);
        assert_eq!(legacy.len(), FILE_LEN - 4);
        assert_eq!(declared_size(&legacy), Ok(11));
        assert_eq!(Network::from_bytes(&legacy), Ok(net));
        let cut = legacy.len() - 1;
        assert_eq!(
            Network::from_bytes(&legacy[..cut]),
            Err(NetworkError::Length(cut, FILE_LEN - 4))
        );
        assert_eq!(
            NetworkOf::<S7>::from_bytes(&legacy),
            Err(NetworkError::Size { file: 11, board: 7 })
        );
    }

    /// The networks of `docs/nets/` (the built-in ones among them) all read, for the
    /// board their header names, and written again they are the same weights: the bytes
    /// of a file in the format, of a legacy file after the new header.
    #[test]
    fn every_network_of_the_docs_reads_and_is_written_with_the_same_weights() {
        fn again<G: Geometry>(bytes: &[u8]) -> Vec<u8> {
            NetworkOf::<G>::from_bytes(bytes).unwrap().to_bytes()
        }
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/nets");
        let mut seen = 0;
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "nnue") {
                continue;
            }
            let bytes = std::fs::read(&path).unwrap();
            let size = crate::core::geometry::BoardSize::ALL
                .into_iter()
                .find(|s| declared_size(&bytes) == Ok(u32::from(s.files())))
                .unwrap();
            let written = crate::with_size!(size, G => again::<G>(&bytes));
            let expected = match bytes.strip_prefix(b"HNEFINN1") {
                Some(rest) => [&b"HNEFINN2"[..], &11u32.to_le_bytes(), rest].concat(),
                None => bytes,
            };
            assert!(written == expected, "{}", path.display());
            seen += 1;
        }
        assert!(seen >= 12, "{seen} networks");
    }

    /// A hidden unit's sum over a piece on every square and its bias fits an i16.
    #[test]
    fn first_layer_bounds_keep_sums_in_sixteen_bits() {
        assert_eq!(max_w1_of::<S11>(), MAX_W1);
        assert_eq!(max_w1_of::<S7>(), 655);
        assert_eq!(max_w1_of::<S13>(), 192);
        assert_eq!(max_w1_of::<S15>(), 144);
        for (squares, bound) in [(49, 655), (81, max_w1_of::<crate::core::geometry::S9>())] {
            assert!((squares + 1) * i32::from(bound) <= i32::from(i16::MAX));
        }
    }

    /// Any bytes are a 7x7 network or an error, never a panic; each of the board's
    /// symmetries maps the inputs one to one.
    #[test]
    fn seven_by_seven_bytes_never_panic() {
        let mut rng = SplitMix64::new(9);
        let good = NetworkOf::<S7>::random(9, max_w1_of::<S7>()).to_bytes();
        let len = good.len();
        for _ in 0..500 {
            let mut bytes = good.clone();
            for _ in 0..1 + rng.below(4) {
                let i = rng.below(bytes.len());
                if let Some(b) = bytes.get_mut(i) {
                    *b = rng.below(256) as u8;
                }
            }
            bytes.truncate(rng.below(len + 1).max(len - rng.below(3)));
            if let Ok(net) = NetworkOf::<S7>::from_bytes(&bytes) {
                net.evaluate(&BoardOf::<S7>::start(), Role::Attacker);
            }
        }
        for sym in 0..8 {
            let mut images: Vec<usize> = (0..inputs_of::<S7>())
                .map(|i| transform_input_of::<S7>(i, sym))
                .collect();
            images.sort_unstable();
            assert!(
                images.iter().copied().eq(0..inputs_of::<S7>()),
                "symmetry {sym}"
            );
        }
    }
}
