//! `hnefi bot` against the real `hnefatafl-server` 6.4.1 (crate `hnefatafl-copenhagen`).
//!
//! The server listens on every interface, so each test runs in a network namespace of
//! its own: the test re-runs itself under `unshare --net --pid --fork --kill-child` (as
//! root, or with a user namespace otherwise) with `HNEFI_IN_NETNS=1`, brings up the
//! loopback there, and starts the server, the bots and the scripted client inside.
//! Nothing is reachable from outside, and nothing outlives the test: the server is killed
//! at the end, and the test is the first process of a PID namespace, whose every process
//! the kernel kills when it exits (or when `unshare` is killed).
//!
//! The server is `$HNEFI_SERVER`, or `~/.cache/hnefi-ci/hnefatafl-server-6.4.1/bin/hnefatafl-server`
//! (where `.ci/run` installs it). The games are `#[ignore]`d, so that a plain `cargo test`
//! reports them as not run (with the reason) instead of passing without a server; they
//! run with `--ignored`, as `.ci/run` runs them, and then fail, never pass, without the
//! server or without network namespaces.
//!
//! Reproduce the games: `cargo test --release --test integration -- bot_server:: --ignored --nocapture`.

use crate::common;

use std::io::{BufRead, BufReader, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex, mpsc};
use std::thread;
use std::time::{Duration, Instant};

use hnefi::bot::games::agrees;
use hnefi::bot::message::{VERSION_ID, result_word};
use hnefi::core::any_game::AnyGame;
use hnefi::core::any_square::{AnyMove, AnySquare};
use hnefi::core::geometry::BoardSize;
use hnefi::core::outcome::Outcome;
use hnefi::core::preset::RulePreset;
use hnefi::core::role::Role;

const PORT: u16 = 49152;

fn server_path() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("HNEFI_SERVER") {
        return Some(PathBuf::from(p)).filter(|p| p.is_file());
    }
    let home = std::env::var_os("HOME")?;
    let p = PathBuf::from(home).join(".cache/hnefi-ci/hnefatafl-server-6.4.1/bin/hnefatafl-server");
    p.is_file().then_some(p)
}

/// The `unshare` arguments that work here, if any.
fn namespace_command() -> Option<Vec<&'static str>> {
    let isolate = ["--net", "--pid", "--fork", "--kill-child"];
    for args in [
        isolate.to_vec(),
        [&["--user", "--map-root-user"][..], &isolate].concat(),
    ] {
        let ok = Command::new("unshare")
            .args(&args)
            .args(["sh", "-c", "ip link set lo up"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if ok {
            return Some(args);
        }
    }
    None
}

/// True inside the namespace (run the test's body); outside, runs the test inside one
/// and returns false. Panics when the server or the namespaces are missing: a game
/// asked for by `--ignored` that cannot be played fails.
fn in_namespace(name: &str) -> bool {
    if std::env::var_os("HNEFI_IN_NETNS").is_some() {
        let up = Command::new("ip")
            .args(["link", "set", "lo", "up"])
            .status();
        assert!(
            up.is_ok_and(|s| s.success()),
            "cannot bring up the loopback in the namespace"
        );
        return true;
    }
    assert!(
        server_path().is_some(),
        "{name}: hnefatafl-server 6.4.1 not found (set HNEFI_SERVER or run .ci/run, which installs it)"
    );
    let Some(unshare) = namespace_command() else {
        panic!(
            "{name}: network namespaces are unavailable here (`unshare --net --pid --fork` failed), and the server must not listen on a shared network"
        );
    };
    let exe = std::env::current_exe().unwrap();
    // The test's name in the one integration-test binary: its module's path, then its own.
    let full = format!("bot_server::{name}");
    let status = Command::new("unshare")
        .args(&unshare)
        .arg(exe)
        .args([
            "--exact",
            full.as_str(),
            "--include-ignored",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("HNEFI_IN_NETNS", "1")
        .status()
        .unwrap();
    assert!(status.success(), "{name} failed in its network namespace");
    false
}

/// A child process killed when dropped.
struct Guard(Child);

impl Drop for Guard {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The server, on loopback in this namespace; its log lines come through the receiver.
fn start_server() -> (Guard, mpsc::Receiver<String>) {
    start_server_with(None)
}

/// The server, keeping its data files (accounts, and the games in progress when it is
/// stopped with SIGINT or SIGTERM) under `home` when given, as a restarted server reads
/// them again; otherwise none.
fn start_server_with(home: Option<&std::path::Path>) -> (Guard, mpsc::Receiver<String>) {
    let server = server_path().unwrap();
    let mut cmd = Command::new(server);
    match home {
        Some(home) => {
            cmd.env("HOME", home)
                .env("XDG_DATA_HOME", home.join("data"));
        }
        None => {
            cmd.arg("--skip-the-data-file");
        }
    }
    let mut child = cmd
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let lines = lines_of(child.stderr.take().unwrap(), "");
    let start = Instant::now();
    while TcpStream::connect(("127.0.0.1", PORT)).is_err() {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "the server did not start"
        );
        thread::sleep(Duration::from_millis(50));
    }
    (Guard(child), lines)
}

/// Forwards each line of `r` (echoed with `label` when not empty).
fn lines_of(r: impl std::io::Read + Send + 'static, label: &'static str) -> mpsc::Receiver<String> {
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        for line in BufReader::new(r).lines().map_while(Result::ok) {
            if !label.is_empty() {
                eprintln!("[{label}] {line}");
            }
            if tx.send(line).is_err() {
                return;
            }
        }
    });
    rx
}

/// `hnefi bot` with `args` (one game, a 16 MiB table); its stderr lines come through the
/// receiver.
fn start_bot(args: &[&str], label: &'static str) -> (Guard, mpsc::Receiver<String>) {
    let mut all = vec!["--max-games", "1", "--hash-mb", "16"];
    all.extend_from_slice(args);
    start_bot_with(&all, label)
}

/// `hnefi bot` on the server with `args` alone.
fn start_bot_with(args: &[&str], label: &'static str) -> (Guard, mpsc::Receiver<String>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hnefi"))
        .arg("bot")
        .args(["--host", "127.0.0.1"])
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let lines = lines_of(child.stderr.take().unwrap(), label);
    (Guard(child), lines)
}

/// Waits for a line containing `needle`; returns every line read.
fn wait_for(rx: &mpsc::Receiver<String>, needle: &str, limit: Duration) -> Vec<String> {
    let end = Instant::now() + limit;
    let mut seen = Vec::new();
    loop {
        let left = end.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(l) => {
                let hit = l.contains(needle);
                seen.push(l);
                if hit {
                    return seen;
                }
            }
            Err(_) => panic!("no '{needle}' within {limit:?}; got: {seen:#?}"),
        }
    }
}

/// Waits for a bot to exit successfully; returns its remaining log.
fn finish(mut bot: Guard, rx: &mpsc::Receiver<String>, limit: Duration) -> Vec<String> {
    let end = Instant::now() + limit;
    loop {
        if let Some(status) = bot.0.try_wait().unwrap() {
            assert!(status.success(), "the bot failed: {status}");
            break;
        }
        assert!(
            Instant::now() < end,
            "the bot did not finish within {limit:?}"
        );
        thread::sleep(Duration::from_millis(100));
    }
    // The reader ends at the bot's exit.
    rx.iter().collect()
}

/// The checks common to every game: over by the rules, nothing refused, nothing lost on
/// time (the server ends a game on time with a resignation), no resignation by hnefi.
fn check_game(logs: &[&[String]], server_log: &[String]) {
    for log in logs {
        let over = log
            .iter()
            .find(|l| l.starts_with("game 0 over:"))
            .unwrap_or_else(|| panic!("no game over in {log:#?}"));
        eprintln!("RECORD {over}");
        // Nothing but the rules ended these games, so hnefi's own referee (the
        // hnefatafl-org preset) must have seen the same end on the same move.
        assert!(
            !over.contains("hnefi's rules: ongoing")
                && !log
                    .iter()
                    .any(|l| l.contains("is not the one hnefi's rules give")),
            "hnefi's rules and the server disagree on the end: {over}"
        );
        // A refused move or command; a refused login is not one of them: a reconnection
        // may be refused (`logged_in_already`) while the server still holds the
        // connection it has not yet seen go, and the bot tries again.
        assert!(
            !log.iter()
                .any(|l| l.contains("the server refused")
                    && !l.contains("the server refused the login")),
            "a move was refused: {log:#?}"
        );
        assert!(
            !log.iter().any(|l| l.contains("resign")),
            "hnefi resigned: {log:#?}"
        );
    }
    // Every ERROR line of the server about a `play` refuses a move (`ERROR
    // hnefatafl_server] play ROLE FROM TO: WHY`, or a command it could not handle) but
    // one: a message it could not write to a client that had gone (`ERROR
    // hnefatafl_server] receiving_and_writing: MESSAGE`, as when the reconnect test cuts
    // a connection while a `game N play ...` is relayed to it), which refuses nothing.
    let bad: Vec<&String> = server_log
        .iter()
        .filter(|l| {
            let error = l.split_once("ERROR").map(|(_, e)| e);
            let unwritten = error
                .and_then(|e| e.split_once("] "))
                .is_some_and(|(_, m)| m.starts_with("receiving_and_writing:"));
            l.contains("resigns") || (error.is_some_and(|e| e.contains("play")) && !unwritten)
        })
        .collect();
    assert!(
        bad.is_empty(),
        "the server refused a move or ended a game on time: {bad:#?}"
    );
}

fn bot_vs_bot(tc: &str, extra: &[&str]) {
    let (_server, server_log) = start_server();
    let (a, a_rx, mut a_log) = offer_game("offerer", "attacker bot", tc, extra);
    let mut join = vec![
        "--username",
        "joiner",
        "--password",
        "pw-joiner",
        "--create-account",
        "--join-game",
        "0",
    ];
    join.extend_from_slice(extra);
    let (b, b_rx) = start_bot(&join, "defender bot");
    let limit = Duration::from_secs(600);
    let b_log = finish(b, &b_rx, limit);
    a_log.extend(finish(a, &a_rx, limit));
    let server_log: Vec<String> = server_log.try_iter().collect();
    check_game(&[&a_log, &b_log], &server_log);
    for log in [&a_log, &b_log] {
        assert!(
            !log.iter().any(|l| l.contains("pw-")),
            "a password was logged"
        );
    }
}

/// Two bots, a Fischer clock of 1 minute + 1 second: every move is budgeted from the
/// server's clock alone (no per-move cap below it).
#[test]
#[ignore = "needs hnefatafl-server 6.4.1 and network namespaces; run with --ignored, as .ci/run does"]
fn timed_game_between_two_bots() {
    if in_namespace("timed_game_between_two_bots") {
        bot_vs_bot("1+1", &["--max-move-ms", "86400000"]);
    }
}

/// Two bots, untimed, at a fixed node count per move.
#[test]
#[ignore = "needs hnefatafl-server 6.4.1 and network namespaces; run with --ignored, as .ci/run does"]
fn untimed_game_between_two_bots() {
    if in_namespace("untimed_game_between_two_bots") {
        bot_vs_bot("untimed", &["--nodes", "20000", "--debug"]);
    }
}

/// The result a result word of the server names.
fn result_of(result: &str) -> Outcome<()> {
    [
        Outcome::win(Role::Attacker, ()),
        Outcome::win(Role::Defender, ()),
        Outcome::draw(()),
    ]
    .into_iter()
    .find(|&w| result_word(w) == result)
    .unwrap_or_else(|| panic!("not a result of the server: {result}"))
}

/// A plain client playing random legal moves as the defenders (by hnefi's rules under the
/// hnefatafl-org preset, which the server must accept) in game 0 on a board of `size`
/// (the server's game of that size: on 7x7 the defenders, so this client, move first),
/// directly on the server. `after_ply` is called with the number of plies seen after each
/// one. Returns the server's result and the plies. hnefi's referee must see the game end
/// exactly where the server ends it: it may never refuse a move the server played, never
/// run out of moves while the server asks for one, and must give the server's result.
fn random_client(size: BoardSize, after_ply: impl FnMut(usize)) -> (String, usize) {
    random_client_in(size, 0, after_ply).expect("the server closed the connection")
}

/// [`random_client`] in game `id`; `None` when the server closes the connection (as a
/// server killed in the middle of the game does). It creates its account, or logs in
/// when the account exists (on a server that kept it).
fn random_client_in(
    size: BoardSize,
    id: u64,
    after_ply: impl FnMut(usize),
) -> Option<(String, usize)> {
    random_client_as("random", size, id, after_ply)
}

/// [`random_client_in`] as the account `user`.
fn random_client_as(
    user: &str,
    size: BoardSize,
    id: u64,
    mut after_ply: impl FnMut(usize),
) -> Option<(String, usize)> {
    random_client_with(user, size, id, Ending::ByTheRules, |ply| {
        after_ply(ply);
        Next::Play
    })
}

/// How a random client's game may end.
#[derive(Clone, Copy, PartialEq)]
enum Ending {
    /// By the rules alone: hnefi's referee must see the end the server gives.
    ByTheRules,
    /// By the rules or by the bot's resignation (a bot that is being stopped).
    OrTheBotResigns,
}

/// What a random client does after a ply.
#[derive(Clone, Copy, PartialEq)]
enum Next {
    /// Goes on on its connection.
    Play,
    /// Logs in again on a new connection (the server was restarted in the callback),
    /// resumes the game with `resume_game` and, the defenders being to move, plays on.
    Reconnect,
}

/// The random client's connection to the server.
struct Link {
    out: TcpStream,
    lines: std::io::Lines<BufReader<TcpStream>>,
}

impl Link {
    /// Connects to the server (waiting up to a minute for one that is starting again).
    fn open() -> Link {
        let start = Instant::now();
        let stream = loop {
            match TcpStream::connect(("127.0.0.1", PORT)) {
                Ok(stream) => break stream,
                Err(e) => {
                    assert!(
                        start.elapsed() < Duration::from_secs(60),
                        "random client: no server to connect to: {e}"
                    );
                    thread::sleep(Duration::from_millis(50));
                }
            }
        };
        stream
            .set_read_timeout(Some(Duration::from_secs(120)))
            .unwrap();
        let out = stream.try_clone().unwrap();
        Link {
            out,
            lines: BufReader::new(stream).lines(),
        }
    }
}

/// [`random_client_as`], ending as `ending` allows, doing what `after_ply` says after
/// each ply.
fn random_client_with(
    user: &str,
    size: BoardSize,
    id: u64,
    ending: Ending,
    mut after_ply: impl FnMut(usize) -> Next,
) -> Option<(String, usize)> {
    let mut link = Link::open();
    writeln!(link.out, "{VERSION_ID} create_account {user} pw").unwrap();
    writeln!(link.out, "join_game_pending {id}").unwrap();
    let game_id = id.to_string();
    let id = game_id.as_str();
    let variant = RulePreset::HnefataflOrg.variant(size).unwrap();
    let mut game = AnyGame::start(&variant, variant.first(), variant.rules()).unwrap();
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut resigned = false;
    let mut play = |game: &mut AnyGame, out: &mut TcpStream| {
        let legal = game.legal_moves();
        assert!(
            !legal.is_empty(),
            "the server wants a move where hnefi's rules see {}",
            game.status()
        );
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let mv = legal[(seed % legal.len() as u64) as usize];
        game.play(mv).unwrap();
        writeln!(out, "game {id} play defender {} {}", mv.from, mv.to).unwrap();
    };
    let result = loop {
        let line = match link.lines.next() {
            Some(Ok(line)) => line,
            Some(Err(e)) if e.kind() == std::io::ErrorKind::ConnectionReset => return None,
            Some(Err(e)) => panic!(
                "random client: no line from the server within its read deadline ({e}) at ply {}",
                game.moves_played()
            ),
            None => return None,
        };
        let words: Vec<&str> = line.split(' ').collect();
        let next = match words.as_slice() {
            ["?", "create_account", ..] => {
                writeln!(link.out, "{VERSION_ID} login {user} pw").unwrap();
                writeln!(link.out, "join_game_pending {id}").unwrap();
                Next::Play
            }
            ["game", g, "play", "attacker", "resigns", _] if *g == id => {
                assert!(
                    ending == Ending::OrTheBotResigns,
                    "the bot resigned: {line}"
                );
                resigned = true;
                Next::Play
            }
            ["game", g, "play", "attacker", from, to] if *g == id => {
                // The server writes 13x13 files in capitals.
                let square = |s: &str| AnySquare::parse(s, size).unwrap();
                let mv = AnyMove::new(square(from), square(to)).unwrap();
                if let Err(e) = game.play(mv) {
                    panic!("the server played {mv}, which hnefi's rules refuse: {e}");
                }
                after_ply(game.moves_played())
            }
            ["game", g, "generate_move", "defender"] if *g == id => {
                play(&mut game, &mut link.out);
                after_ply(game.moves_played())
            }
            ["?", "game", ..] => panic!("the server refused the random client's move: {line}"),
            ["=", "game_over", g, result] if *g == id => break (*result).to_string(),
            ["=", "draw", "accept"] => break "draw".to_string(),
            _ => Next::Play,
        };
        if next == Next::Reconnect {
            assert_eq!(
                game.to_move(),
                Role::Defender,
                "the random client reconnects at its own turn"
            );
            link = Link::open();
            writeln!(link.out, "{VERSION_ID} login {user} pw").unwrap();
            writeln!(link.out, "resume_game {id}").unwrap();
            loop {
                match link.lines.next() {
                    Some(Ok(l)) if l.starts_with("= resume_game ") => break,
                    Some(Ok(l)) if l.starts_with("? login") => {
                        panic!("random client: the restarted server refused the login: {l}")
                    }
                    Some(Ok(_)) => {}
                    other => panic!(
                        "random client: the restarted server did not resume game {id}: {other:?}"
                    ),
                }
            }
            eprintln!(
                "random client {user}: game {id} resumed at ply {}",
                game.moves_played()
            );
            play(&mut game, &mut link.out);
            if after_ply(game.moves_played()) == Next::Reconnect {
                panic!("the random client reconnects once per restart, at its turn");
            }
        }
    };
    let plies = game.moves_played();
    eprintln!(
        "random client {user}: game {id} {result} after {plies} plies (hnefi's rules: {})",
        game.status()
    );
    if resigned {
        assert_eq!(
            result,
            result_word(Outcome::win(Role::Defender, ())),
            "{result}"
        );
    } else {
        assert!(
            game.status().is_over() && agrees(result_of(&result), game.status()),
            "the server's result {result}, hnefi's rules: {}",
            game.status()
        );
    }
    Some((result, plies))
}

/// A bot logged in as `user` (password `pw-USER`), offering game 0 as the attackers at
/// `tc`, with `extra` arguments; returns it once the offer is made.
fn offer_game(
    user: &str,
    label: &'static str,
    tc: &str,
    extra: &[&str],
) -> (Guard, mpsc::Receiver<String>, Vec<String>) {
    let password = format!("pw-{user}");
    let mut args = vec![
        "--username",
        user,
        "--password",
        &password,
        "--create-account",
        "--role",
        "attacker",
        "--accept-games",
        "1",
        "--tc",
        tc,
    ];
    args.extend_from_slice(extra);
    let (bot, rx) = start_bot(&args, label);
    let log = wait_for(&rx, "offered game 0", Duration::from_secs(20));
    (bot, rx, log)
}

/// The bot, offering game 0 on 11x11 as the attackers (1 minute + 1 second, at most
/// 200 ms a move) on `port`.
fn start_offering_bot(port: &str) -> (Guard, mpsc::Receiver<String>, Vec<String>) {
    offer_game(
        "hnefi",
        "bot",
        "1+1",
        &["--max-move-ms", "200", "--port", port],
    )
}

/// The bot against a plain client that plays random legal moves.
#[test]
#[ignore = "needs hnefatafl-server 6.4.1 and network namespaces; run with --ignored, as .ci/run does"]
fn game_against_a_random_client() {
    if !in_namespace("game_against_a_random_client") {
        return;
    }
    let (_server, server_log) = start_server();
    let (bot, bot_rx, mut bot_log) = start_offering_bot(&PORT.to_string());
    random_client(BoardSize::S11, |_| {});
    bot_log.extend(finish(bot, &bot_rx, Duration::from_secs(60)));
    let server_log: Vec<String> = server_log.try_iter().collect();
    check_game(&[&bot_log], &server_log);
}

/// The bot offers game 0 on a board of `size` as the attackers at `tc` (at most 200 ms a
/// move: the time per move when untimed), and must beat the random client there under
/// the server's rules for that size, with no move refused and nothing lost on time.
fn wins_against_a_random_client(size: BoardSize, tc: &str) {
    let (_server, server_log) = start_server();
    let board = size.to_string();
    let (bot, bot_rx, mut bot_log) = offer_game(
        "hnefi",
        "bot",
        tc,
        &["--max-move-ms", "200", "--board-size", &board],
    );
    assert!(
        bot_log
            .iter()
            .any(|l| l.contains(&format!("offered game 0 (attacker, {board}x{board},"))),
        "{bot_log:#?}"
    );
    let (result, plies) = random_client(size, |_| {});
    bot_log.extend(finish(bot, &bot_rx, Duration::from_secs(60)));
    let server_log: Vec<String> = server_log.try_iter().collect();
    check_game(&[&bot_log], &server_log);
    assert_eq!(
        result, "attacker_wins",
        "hnefi (the attackers) did not beat random moves on {board}x{board} in {plies} plies"
    );
}

/// 7x7, untimed: the defenders (the random client) move first.
#[test]
#[ignore = "needs hnefatafl-server 6.4.1 and network namespaces; run with --ignored, as .ci/run does"]
fn untimed_7x7_game_against_a_random_client() {
    if in_namespace("untimed_7x7_game_against_a_random_client") {
        wins_against_a_random_client(BoardSize::S7, "untimed");
    }
}

/// 7x7 at 1 minute + 1 second.
#[test]
#[ignore = "needs hnefatafl-server 6.4.1 and network namespaces; run with --ignored, as .ci/run does"]
fn timed_7x7_game_against_a_random_client() {
    if in_namespace("timed_7x7_game_against_a_random_client") {
        wins_against_a_random_client(BoardSize::S7, "1+1");
    }
}

/// 13x13, untimed: the server writes the squares' files in capitals, `i` included.
#[test]
#[ignore = "needs hnefatafl-server 6.4.1 and network namespaces; run with --ignored, as .ci/run does"]
fn untimed_13x13_game_against_a_random_client() {
    if in_namespace("untimed_13x13_game_against_a_random_client") {
        wins_against_a_random_client(BoardSize::S13, "untimed");
    }
}

/// 13x13 at 1 minute + 1 second.
#[test]
#[ignore = "needs hnefatafl-server 6.4.1 and network namespaces; run with --ignored, as .ci/run does"]
fn timed_13x13_game_against_a_random_client() {
    if in_namespace("timed_13x13_game_against_a_random_client") {
        wins_against_a_random_client(BoardSize::S13, "1+1");
    }
}

/// A TCP relay on loopback from `port` to the server, whose connections the test can cut
/// (the listener stays, so that the bot can connect again).
struct Relay {
    open: Arc<Mutex<Vec<TcpStream>>>,
}

impl Relay {
    fn start(port: u16) -> Relay {
        let listener = TcpListener::bind(("127.0.0.1", port)).unwrap();
        let open = Arc::new(Mutex::new(Vec::new()));
        let list = Arc::clone(&open);
        thread::spawn(move || {
            for client in listener.incoming() {
                let Ok(client) = client else { continue };
                let Ok(server) = TcpStream::connect(("127.0.0.1", PORT)) else {
                    continue;
                };
                let (Ok(c2), Ok(s2), Ok(c3), Ok(s3)) = (
                    client.try_clone(),
                    server.try_clone(),
                    client.try_clone(),
                    server.try_clone(),
                ) else {
                    continue;
                };
                list.lock().unwrap().extend([c3, s3]);
                pipe(client, server);
                pipe(s2, c2);
            }
        });
        Relay { open }
    }

    /// Closes every connection carried so far; returns how many there were.
    fn cut(&self) -> usize {
        let streams: Vec<TcpStream> = self.open.lock().unwrap().drain(..).collect();
        for s in &streams {
            let _ = s.shutdown(Shutdown::Both);
        }
        streams.len() / 2
    }
}

/// Copies `from` to `to` until either side closes, then closes both.
fn pipe(mut from: TcpStream, mut to: TcpStream) {
    thread::spawn(move || {
        let _ = std::io::copy(&mut from, &mut to);
        let _ = to.shutdown(Shutdown::Both);
        let _ = from.shutdown(Shutdown::Both);
    });
}

/// The bot's connection drops in the middle of a game (the test cuts the relay it goes
/// through); it reconnects, resumes the game with `resume_game_json` and finishes it.
#[test]
#[ignore = "needs hnefatafl-server 6.4.1 and network namespaces; run with --ignored, as .ci/run does"]
fn bot_reconnects_and_finishes_a_game() {
    if !in_namespace("bot_reconnects_and_finishes_a_game") {
        return;
    }
    let (_server, server_log) = start_server();
    let relay = Relay::start(PORT + 1);
    let (bot, bot_rx, mut bot_log) = start_offering_bot(&(PORT + 1).to_string());
    let mut cut = 0;
    let (_, plies) = random_client(BoardSize::S11, |ply| {
        // Twice: once on the bot's turn (after the client's move), once on the client's.
        if ply == 6 || ply == 11 {
            cut += relay.cut();
        }
    });
    assert!(plies > 11, "the game ended before the second cut");
    assert_eq!(cut, 2, "the relay carried one connection before each cut");
    bot_log.extend(finish(bot, &bot_rx, Duration::from_secs(60)));
    let reconnected = bot_log
        .iter()
        .filter(|l| l.contains("reconnected; resuming 1 open game(s)"))
        .count();
    assert_eq!(
        reconnected, 2,
        "the bot did not reconnect twice: {bot_log:#?}"
    );
    let server_log: Vec<String> = server_log.try_iter().collect();
    check_game(&[&bot_log], &server_log);
}

/// The games above are reported as ignored by a plain `cargo test`, never as passed, and
/// one asked for without the server fails instead of passing without playing.
#[test]
fn server_games_are_ignored_and_fail_without_the_server() {
    let exe = std::env::current_exe().unwrap();
    let listed = common::output_of(
        Command::new(&exe).args(["--list", "--ignored"]),
        "the test list",
    );
    let listed = String::from_utf8_lossy(&listed.stdout);
    for name in [
        "timed_game_between_two_bots",
        "untimed_game_between_two_bots",
        "game_against_a_random_client",
        "bot_reconnects_and_finishes_a_game",
        "untimed_7x7_game_against_a_random_client",
        "timed_7x7_game_against_a_random_client",
        "untimed_13x13_game_against_a_random_client",
        "timed_13x13_game_against_a_random_client",
        "bot_offers_again_after_the_server_is_killed_and_restarted",
        "bot_reconnects_when_the_server_stops_answering",
        "three_bots_play_a_tournament_to_its_end",
        "soak_the_bot_for_many_games",
        "bot_resumes_a_game_the_restarted_server_kept",
        "bot_stopped_mid_game_resigns_at_its_turn_and_exits_0",
    ] {
        assert!(
            listed.contains(&format!("bot_server::{name}: test")),
            "{name}: {listed}"
        );
    }
    let missing = std::env::temp_dir().join("hnefi-no-such-server");
    let out = common::output_of(
        Command::new(&exe)
            .args([
                "--exact",
                "bot_server::timed_game_between_two_bots",
                "--ignored",
            ])
            .env("HNEFI_SERVER", &missing)
            .env_remove("HNEFI_IN_NETNS"),
        "a server game without the server",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success(), "{text}");
    assert!(text.contains("hnefatafl-server 6.4.1 not found"), "{text}");
}

/// The id in the bot's log line `offered game N (...)`.
fn offered_id(log: &[String]) -> u64 {
    log.iter()
        .rev()
        .find_map(|l| {
            l.split("offered game ")
                .nth(1)?
                .split(' ')
                .next()?
                .parse()
                .ok()
        })
        .unwrap_or_else(|| panic!("no offer in {log:#?}"))
}

/// A scratch directory for a server's data files.
fn server_home(name: &str) -> PathBuf {
    common::scratch("bot_server", name)
}

/// The server killed (SIGKILL) in the middle of a game and started again on its data
/// files: it has kept the accounts but lost the game and the bot's offer. The bot
/// reconnects, drops the game the server no longer answers for, offers again, and plays
/// the new game to its end (the issue: it used to reconnect and never offer again).
#[test]
#[ignore = "needs hnefatafl-server 6.4.1 and network namespaces; run with --ignored, as .ci/run does"]
fn bot_offers_again_after_the_server_is_killed_and_restarted() {
    if !in_namespace("bot_offers_again_after_the_server_is_killed_and_restarted") {
        return;
    }
    let home = server_home("restart");
    let (server, _first_log) = start_server_with(Some(&home));
    let server = std::cell::RefCell::new(Some(server));
    let (bot, bot_rx, mut bot_log) = offer_game(
        "hnefi",
        "bot",
        "untimed",
        &["--max-move-ms", "200", "--heartbeat-secs", "2"],
    );
    let first = offered_id(&bot_log);
    let lost = random_client_in(BoardSize::S11, first, |ply| {
        if ply == 6 {
            // Dropped, the guard kills the server and waits for it.
            server.borrow_mut().take();
        }
    });
    assert!(
        lost.is_none(),
        "the game ended before the server was killed"
    );
    let (_server, server_log) = start_server_with(Some(&home));
    bot_log.extend(wait_for(&bot_rx, "reconnected", Duration::from_secs(120)));
    bot_log.extend(wait_for(&bot_rx, "offered game", Duration::from_secs(120)));
    let second = offered_id(&bot_log);
    let (result, plies) = random_client_in(BoardSize::S11, second, |_| {})
        .expect("the server closed the connection in the second game");
    eprintln!("second game {second}: {result} after {plies} plies");
    bot_log.extend(finish(bot, &bot_rx, Duration::from_secs(120)));
    assert!(
        bot_log.iter().any(
            |l| l.contains(&format!("game {first}: the server did not resume it"))
                || l.contains(&format!(
                    "game {first}: the server's game of this id is not ours now"
                ))
        ),
        "the lost game was not dropped: {bot_log:#?}"
    );
    assert!(
        bot_log
            .iter()
            .any(|l| l.starts_with(&format!("game {second} over: {result}"))),
        "{bot_log:#?}"
    );
    assert!(
        !bot_log.iter().any(|l| l.contains("the server refused")),
        "{bot_log:#?}"
    );
    let server_log: Vec<String> = server_log.try_iter().collect();
    assert!(
        !server_log.iter().any(|l| l.contains("resigns")),
        "{server_log:#?}"
    );
    let _ = std::fs::remove_dir_all(&home);
}

/// The server stops answering without closing the connection (SIGSTOP, for three
/// heartbeats and more) in the middle of a game, then goes on (SIGCONT): the bot's pings
/// go unanswered, it reconnects, resumes the game and finishes it.
#[test]
#[ignore = "needs hnefatafl-server 6.4.1 and network namespaces; run with --ignored, as .ci/run does"]
fn bot_reconnects_when_the_server_stops_answering() {
    if !in_namespace("bot_reconnects_when_the_server_stops_answering") {
        return;
    }
    let (server, server_log) = start_server();
    let pid = server.0.id();
    let (bot, bot_rx, mut bot_log) = offer_game(
        "hnefi",
        "bot",
        "untimed",
        &["--max-move-ms", "200", "--heartbeat-secs", "1"],
    );
    let (_, plies) = random_client(BoardSize::S11, |ply| {
        if ply == 6 {
            signal("-STOP", pid);
            thread::sleep(Duration::from_secs(8));
            signal("-CONT", pid);
        }
    });
    assert!(plies > 6);
    bot_log.extend(finish(bot, &bot_rx, Duration::from_secs(120)));
    assert!(
        bot_log.iter().any(|l| l.contains("it stopped answering")),
        "{bot_log:#?}"
    );
    let server_log: Vec<String> = server_log.try_iter().collect();
    check_game(&[&bot_log], &server_log);
}

/// Sends `signal` (`-TERM`, `-STOP`, ...) to the process `pid`.
fn signal(sig: &str, pid: u32) {
    let sent = Command::new("kill")
        .args([sig, &pid.to_string()])
        .status()
        .is_ok_and(|s| s.success());
    assert!(sent, "kill {sig} {pid}");
}

/// The server stopped as a service manager stops it (SIGTERM: it saves the games in
/// progress and exits) in the middle of a game, and started again on its data files: it
/// has kept the game. The bot reconnects, resumes the game with `resume_game_json`, and
/// plays it to its end against the client, which resumes it too.
#[test]
#[ignore = "needs hnefatafl-server 6.4.1 and network namespaces; run with --ignored, as .ci/run does"]
fn bot_resumes_a_game_the_restarted_server_kept() {
    if !in_namespace("bot_resumes_a_game_the_restarted_server_kept") {
        return;
    }
    let home = server_home("graceful-restart");
    let (server, _first_log) = start_server_with(Some(&home));
    let mut server = Some(server);
    let mut second_log = None;
    let (bot, bot_rx, mut bot_log) = offer_game(
        "hnefi",
        "bot",
        "untimed",
        &["--max-move-ms", "200", "--heartbeat-secs", "2"],
    );
    let id = offered_id(&bot_log);
    let (result, plies) =
        random_client_with("random", BoardSize::S11, id, Ending::ByTheRules, |ply| {
            // After the bot's fourth move, the defenders (this client) to move.
            if ply != 7 {
                return Next::Play;
            }
            let Some(mut old) = server.take() else {
                return Next::Play;
            };
            signal("-TERM", old.0.id());
            let status = common::wait_exit(&mut old.0, "the server after SIGTERM");
            assert!(status.success(), "the server stopped with {status}");
            let (new, log) = start_server_with(Some(&home));
            server = Some(new);
            second_log = Some(log);
            Next::Reconnect
        })
        .expect("the restarted server closed the connection");
    eprintln!("game {id}: {result} after {plies} plies, through the restart");
    assert!(plies > 8, "{plies}");
    bot_log.extend(finish(bot, &bot_rx, Duration::from_secs(120)));
    assert!(
        bot_log
            .iter()
            .any(|l| l.contains("reconnected; resuming 1 open game")),
        "{bot_log:#?}"
    );
    assert!(
        !bot_log
            .iter()
            .any(|l| l.contains(&format!("game {id}: the server did not resume it"))),
        "{bot_log:#?}"
    );
    let server_log: Vec<String> = second_log
        .expect("the server was restarted")
        .try_iter()
        .collect();
    let renamed: Vec<String> = bot_log
        .iter()
        .map(|l| l.replace(&format!("game {id} over:"), "game 0 over:"))
        .collect();
    check_game(&[&renamed], &server_log);
    let _ = std::fs::remove_dir_all(&home);
}

/// SIGTERM to the bot in the middle of a game on the real server, with a short grace: the
/// bot takes no new game, plays on for the grace, resigns the game at its own turn (the
/// client sees the resignation and the server's `game_over`), logs out and exits 0.
#[test]
#[ignore = "needs hnefatafl-server 6.4.1 and network namespaces; run with --ignored, as .ci/run does"]
fn bot_stopped_mid_game_resigns_at_its_turn_and_exits_0() {
    if !in_namespace("bot_stopped_mid_game_resigns_at_its_turn_and_exits_0") {
        return;
    }
    let (_server, server_log) = start_server();
    let (mut bot, bot_rx, mut bot_log) = offer_game(
        "hnefi",
        "bot",
        "untimed",
        &["--max-move-ms", "200", "--stop-grace-secs", "1"],
    );
    let pid = bot.0.id();
    let (result, plies) = random_client_with(
        "random",
        BoardSize::S11,
        0,
        Ending::OrTheBotResigns,
        |ply| {
            if ply == 6 {
                signal("-TERM", pid);
            }
            Next::Play
        },
    )
    .expect("the server closed the connection");
    eprintln!("game 0: {result} after {plies} plies, the bot stopped at ply 6");
    let status = common::wait_exit(&mut bot.0, "the bot after SIGTERM");
    assert!(status.success(), "the bot stopped with {status}");
    bot_log.extend(bot_rx.iter());
    let has = |needle: &str| bot_log.iter().any(|l| l.contains(needle));
    assert!(has("stop requested: no new games"), "{bot_log:#?}");
    assert!(has("logged out"), "{bot_log:#?}");
    // Over within the grace by the rules, or resigned at the bot's turn after it.
    let over = bot_log
        .iter()
        .find(|l| l.starts_with("game 0 over:"))
        .unwrap_or_else(|| panic!("no game over in {bot_log:#?}"));
    eprintln!("RECORD {over}");
    if result == result_word(Outcome::win(Role::Defender, ())) {
        assert!(
            has("game 0: resigning (the bot is stopping)"),
            "{bot_log:#?}"
        );
    }
    let server_log: Vec<String> = server_log.try_iter().collect();
    assert!(
        !server_log.iter().any(|l| l.contains("ERROR")
            && l.contains("play")
            && !l.contains("receiving_and_writing")),
        "the server refused a move: {server_log:#?}"
    );
}

/// A plain client of the test, logged in (its account created) as `user`.
struct Client {
    out: TcpStream,
    lines: std::io::Lines<BufReader<TcpStream>>,
}

impl Client {
    fn login(user: &str) -> Client {
        let stream = TcpStream::connect(("127.0.0.1", PORT)).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(300)))
            .unwrap();
        let mut out = stream.try_clone().unwrap();
        writeln!(out, "{VERSION_ID} create_account {user} pw-{user}").unwrap();
        let mut client = Client {
            out,
            lines: BufReader::new(stream).lines(),
        };
        client.wait(
            |l| l.starts_with("= login") || l.starts_with("= create_account"),
            "its login",
        );
        client
    }

    fn say(&mut self, line: &str) {
        writeln!(self.out, "{line}").unwrap();
    }

    /// The first line for which `hit` is true.
    fn wait(&mut self, mut hit: impl FnMut(&str) -> bool, what: &str) -> String {
        loop {
            match self.lines.next() {
                Some(Ok(line)) if hit(&line) => return line,
                Some(Ok(_)) => {}
                Some(Err(e)) => panic!("no line from the server ({e}) while waiting for {what}"),
                None => panic!("the server closed the connection while waiting for {what}"),
            }
        }
    }
}

/// The JSON of a `= tournament_status_0 {...}` line.
fn tournament_status(line: &str) -> serde_json::Value {
    let json = line
        .strip_prefix("= tournament_status_0 ")
        .unwrap_or_else(|| panic!("not a tournament status: {line}"));
    serde_json::from_str(json).unwrap_or_else(|e| panic!("bad tournament status ({e}): {line}"))
}

/// A tournament of three bots (`--join-tournament`) on 7x7 at the tournament's clock,
/// started with the server's admin commands by a tournament admin (named in the data
/// file the server starts with) and played to its end: every game the server makes is
/// played and over, with no move refused; then SIGTERM stops each bot (status 0).
#[test]
#[ignore = "needs hnefatafl-server 6.4.1 and network namespaces; run with --ignored, as .ci/run does"]
fn three_bots_play_a_tournament_to_its_end() {
    if !in_namespace("three_bots_play_a_tournament_to_its_end") {
        return;
    }
    let home = server_home("tournament");
    let data = home.join("data/hnefatafl-copenhagen");
    std::fs::create_dir_all(&data).unwrap();
    std::fs::write(data.join("users.ron"), "(admins_tournament: [\"boss\"])\n").unwrap();
    let (_server, server_log) = start_server_with(Some(&home));
    let mut boss = Client::login("boss");
    let names = ["bot-a", "bot-b", "bot-c"];
    let mut bots = Vec::new();
    for (name, label) in names.iter().zip(["bot a", "bot b", "bot c"]) {
        let password = format!("pw-{name}");
        let (bot, rx) = start_bot_with(
            &[
                "--hash-mb",
                "16",
                "--username",
                name,
                "--password",
                &password,
                "--create-account",
                "--join-tournament",
                "--max-games",
                "0",
                "--max-move-ms",
                "100",
                "--stop-grace-secs",
                "0",
            ],
            label,
        );
        bots.push((bot, rx));
    }
    boss.wait(
        |l| {
            l.starts_with("= tournament_status_0 ")
                && tournament_status(l)["players"]
                    .as_array()
                    .is_some_and(|p| p.len() == names.len())
        },
        "the three bots in the tournament",
    );
    boss.say("tournament_board_size 7");
    boss.say("tournament_time Timed((add_seconds:1,milliseconds_left:30000))");
    boss.say("tournament_date 2020-01-01T00:00:00Z");
    boss.say("tournament_start");
    // Started: the status has a tournament with games; ended: none left to play.
    let mut started = false;
    let mut rounds = 0;
    let end = Instant::now() + Duration::from_secs(1200);
    while Instant::now() < end {
        let line = boss.wait(
            |l| l.starts_with("= tournament_status_0 "),
            "the tournament's end",
        );
        let status = tournament_status(&line);
        let tournament = &status["tournament"];
        if tournament.is_null() {
            continue;
        }
        rounds = tournament["groups"].as_array().map_or(0, Vec::len);
        let left = tournament["tournament_games"]
            .as_object()
            .map_or(0, serde_json::Map::len);
        if left > 0 {
            started = true;
        } else if started {
            eprintln!("the tournament ended after {rounds} round(s): {line}");
            break;
        }
    }
    assert!(started && rounds > 0, "the tournament did not start");
    let mut total = 0;
    for ((mut bot, rx), name) in bots.into_iter().zip(names) {
        // The last game's `game_over` may still be on its way to a bot when the status
        // says the tournament is over: wait for each bot's four games before stopping it.
        let mut log = Vec::new();
        while log
            .iter()
            .filter(|l: &&String| l.contains(" over: "))
            .count()
            < 4
        {
            log.extend(wait_for(&rx, " over: ", Duration::from_secs(120)));
        }
        signal("-TERM", bot.0.id());
        let status = common::wait_exit(&mut bot.0, "a tournament bot after SIGTERM");
        assert!(status.success(), "{name}: {status}");
        log.extend(rx.iter());
        let over = log.iter().filter(|l| l.contains(" over: ")).count();
        eprintln!("{name}: {over} game(s) over");
        assert!(over >= 4, "{name} played {over} games: {log:#?}");
        total += over;
        assert!(
            !log.iter().any(|l| l.contains("the server refused")),
            "{log:#?}"
        );
        assert!(log.iter().any(|l| l.contains("logged out")), "{log:#?}");
    }
    // Each game is over for both of its players.
    assert!(total >= 12, "{total}");
    let server_log: Vec<String> = server_log.try_iter().collect();
    assert!(
        !server_log.iter().any(|l| l.contains("resigns")),
        "a game ended on time or by resignation: {server_log:#?}"
    );
    let _ = std::fs::remove_dir_all(&home);
}

/// What /proc says of a process: resident memory (KiB), threads, open descriptors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Usage {
    rss_kib: u64,
    threads: u64,
    fds: u64,
}

/// The pid in /proc of our child whose pid in its namespace is `child`: the test runs in a
/// PID namespace of its own, with the machine's /proc (its `NSpid` line gives both).
fn proc_pid(child: u32) -> u32 {
    let me = std::fs::read_link("/proc/self")
        .ok()
        .and_then(|p| p.to_str()?.parse::<u32>().ok())
        .expect("our pid in /proc");
    let found = std::fs::read_dir("/proc").unwrap().find_map(|e| {
        let pid: u32 = e.ok()?.file_name().to_str()?.parse().ok()?;
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
        let field = |name: &str| status.lines().find_map(|l| l.strip_prefix(name));
        let parent: u32 = field("PPid:")?.trim().parse().ok()?;
        let inner: u32 = field("NSpid:")?.split_whitespace().last()?.parse().ok()?;
        (parent == me && inner == child).then_some(pid)
    });
    found.unwrap_or_else(|| panic!("no child {child} of {me} in /proc"))
}

/// `None` once the process has exited (a zombie has no memory).
fn usage(pid: u32) -> Option<Usage> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|v| v.parse().ok())
    };
    let fds = std::fs::read_dir(format!("/proc/{pid}/fd")).ok()?.count() as u64;
    Some(Usage {
        rss_kib: field("VmRSS:")?,
        threads: field("Threads:")?,
        fds,
    })
}

/// How much the bot's resident memory may grow past its largest value over the first
/// round of every board and clock (its warm-up: the search's tables touched, each
/// board's code paged in), in KiB. A leak of a game's state (its record, its board, a
/// connection buffer) over the hundreds of games of the long run would pass it.
const RSS_GROWTH_KIB: u64 = 8 * 1024;

/// The soak: one bot process (attackers, two offers open at a time, cycling through
/// 7x7, 11x11 and 13x13, untimed and at 1 minute + 1 second, at most 100 ms a move)
/// against the random client for `HNEFI_SOAK_GAMES` games (default 6: every board and
/// clock once). After each game the bot's resident memory, threads and descriptors
/// (/proc) are read: past the warm-up (the first six games) the threads and descriptors
/// may not exceed their warm-up maxima and the memory may not grow by more than
/// [`RSS_GROWTH_KIB`]; every game must end (`game_over`, the client's result), with no
/// move refused. The long run: `HNEFI_SOAK_GAMES=200`.
#[test]
#[ignore = "needs hnefatafl-server 6.4.1 and network namespaces; run with --ignored, as .ci/run does"]
fn soak_the_bot_for_many_games() {
    if !in_namespace("soak_the_bot_for_many_games") {
        return;
    }
    let games: usize = std::env::var("HNEFI_SOAK_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(6);
    let (_server, server_log) = start_server();
    let max_games = games.to_string();
    let mut child = Command::new(env!("CARGO_BIN_EXE_hnefi"))
        .arg("bot")
        .args([
            "--host",
            "127.0.0.1",
            "--username",
            "soak",
            "--password",
            "pw-soak",
        ])
        .args([
            "--create-account",
            "--role",
            "attacker",
            "--accept-games",
            "2",
        ])
        .args(["--board-size", "7,11,13", "--tc", "untimed,1+1"])
        .args([
            "--max-move-ms",
            "100",
            "--hash-mb",
            "1",
            "--max-games",
            &max_games,
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = proc_pid(child.id());
    let rx = lines_of(child.stderr.take().unwrap(), "soak bot");
    let bot = Guard(child);
    let start = Instant::now();
    let (done_tx, done_rx) = mpsc::channel();
    let mut clients = Vec::new();
    let mut over = 0;
    let mut samples: Vec<Usage> = Vec::new();
    let mut log = Vec::new();
    let warm_up = 6;
    while over < games {
        let line = rx
            .recv_timeout(Duration::from_secs(300))
            .unwrap_or_else(|_| panic!("the bot fell silent after {over} games: {log:#?}"));
        if let Some(rest) = line.strip_prefix("offered game ") {
            // `offered game N (attacker, SxS, ...)`
            let id: u64 = rest.split(' ').next().unwrap().parse().unwrap();
            let dim = rest
                .split(", ")
                .nth(1)
                .and_then(|b| b.split('x').next())
                .unwrap()
                .to_string();
            let size: BoardSize = dim.parse().unwrap();
            let done = done_tx.clone();
            clients.push(thread::spawn(move || {
                let user = format!("rc{id}");
                let result = random_client_as(&user, size, id, |_| {});
                let _ = done.send((id, result));
            }));
        }
        if line.starts_with("game ") && line.contains(" over: ") {
            over += 1;
            let Some(u) = usage(pid) else {
                // After its last game the bot logs out and exits at once.
                assert_eq!(over, games, "the bot exited after {over} games: {log:#?}");
                break;
            };
            eprintln!(
                "soak: game {over} of {games} over after {} s: rss {} KiB, {} threads, {} fds",
                start.elapsed().as_secs(),
                u.rss_kib,
                u.threads,
                u.fds
            );
            samples.push(u);
            if samples.len() > warm_up {
                let warm = &samples[..warm_up];
                let max = |f: fn(&Usage) -> u64| warm.iter().map(f).max().unwrap_or(0);
                assert!(
                    u.threads <= max(|u| u.threads),
                    "threads grew: {u:?} after the warm-up's {warm:?}"
                );
                assert!(
                    u.fds <= max(|u| u.fds),
                    "descriptors grew: {u:?} after {warm:?}"
                );
                assert!(
                    u.rss_kib <= max(|u| u.rss_kib) + RSS_GROWTH_KIB,
                    "memory grew: {u:?} after {warm:?}"
                );
            }
        }
        assert!(
            !line.contains("the server refused") && !line.contains("resign"),
            "{line}"
        );
        log.push(line);
    }
    drop(done_tx);
    let results: Vec<(u64, Option<(String, usize)>)> = done_rx.iter().collect();
    for c in clients {
        c.join().unwrap();
    }
    assert_eq!(results.len(), games, "every game a client started ended");
    for (id, result) in &results {
        assert!(result.is_some(), "game {id} did not end: {log:#?}");
    }
    let mut bot = bot;
    let status = common::wait_exit(&mut bot.0, "the soak's bot after its last game");
    assert!(status.success(), "{status}");
    let first = samples.first().copied();
    let last = samples.last().copied();
    eprintln!(
        "soak: {games} games in {} s; first {first:?}, last {last:?}, max rss {} KiB",
        start.elapsed().as_secs(),
        samples.iter().map(|u| u.rss_kib).max().unwrap_or(0)
    );
    let server_log: Vec<String> = server_log.try_iter().collect();
    assert!(
        !server_log.iter().any(|l| l.contains("resigns")),
        "a game ended on time: {server_log:#?}"
    );
}
