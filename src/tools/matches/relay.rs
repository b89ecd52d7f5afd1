//! The TCP relay for the reference engine's network mode.
//!
//! `hnefatafl-text-protocol --host 127.0.0.1 --ai basic --depth N` (or `--ai monte-carlo
//! --seconds S`) connects to port 49152 of the host and then plays whatever it is sent:
//! `play ROLE FROM TO` (the opponent's moves; no reply) and `generate_move ROLE` (answered
//! by a bare `play ROLE FROM TO` line, a move it has also made on its own board). The
//! runner listens on the loopback address only, starts one engine process per game and
//! accepts its connection (see [`super::engine::Process::spawn_tcp`]); the dialect is
//! [`super::dialect::EngineDialect::HtpTcp`].

use std::net::{Ipv4Addr, TcpListener};

/// The port the reference engine connects to.
pub(crate) const PORT: u16 = 49152;

/// Listens on 127.0.0.1:49152 (loopback only).
pub(crate) fn bind() -> std::io::Result<TcpListener> {
    TcpListener::bind((Ipv4Addr::LOCALHOST, PORT))
}
