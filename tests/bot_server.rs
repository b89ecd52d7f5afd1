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

use std::io::{BufRead, BufReader, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex, mpsc};
use std::thread;
use std::time::{Duration, Instant};

use hnefi::bot::games::agrees;
use hnefi::bot::message::VERSION_ID;
use hnefi::core::any_game::AnyGame;
use hnefi::core::any_square::{AnyMove, AnySquare};
use hnefi::core::geometry::BoardSize;
use hnefi::core::preset::RulePreset;

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
    let server = server_path().unwrap();
    let mut child = Command::new(server)
        .arg("--skip-the-data-file")
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

/// `hnefi bot` with `args`; its stderr lines come through the receiver.
fn start_bot(args: &[&str], label: &'static str) -> (Guard, mpsc::Receiver<String>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hnefi"))
        .arg("bot")
        .args(["--host", "127.0.0.1", "--max-games", "1", "--hash-mb", "16"])
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
        assert!(
            !log.iter().any(|l| l.contains("the server refused")),
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

/// A plain client playing random legal moves as the defenders (by hnefi's rules under the
/// hnefatafl-org preset, which the server must accept) in game 0 on a board of `size`
/// (the server's game of that size: on 7x7 the defenders, so this client, move first),
/// directly on the server. `after_ply` is called with the number of plies seen after each
/// one. Returns the server's result and the plies. hnefi's referee must see the game end
/// exactly where the server ends it: it may never refuse a move the server played, never
/// run out of moves while the server asks for one, and must give the server's result.
fn random_client(size: BoardSize, mut after_ply: impl FnMut(usize)) -> (String, usize) {
    let stream = TcpStream::connect(("127.0.0.1", PORT)).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(120)))
        .unwrap();
    let mut out = stream.try_clone().unwrap();
    let mut lines = BufReader::new(stream).lines();
    writeln!(out, "{VERSION_ID} create_account random pw").unwrap();
    writeln!(out, "join_game_pending 0").unwrap();
    let variant = RulePreset::HnefataflOrg.variant(size).unwrap();
    let mut game = AnyGame::start(&variant, variant.first(), variant.rules()).unwrap();
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let result = loop {
        let line = match lines.next() {
            Some(Ok(line)) => line,
            Some(Err(e)) => panic!(
                "random client: no line from the server within its read deadline ({e}) at ply {}",
                game.moves_played()
            ),
            None => panic!("random client: the server closed the connection"),
        };
        let words: Vec<&str> = line.split(' ').collect();
        match words.as_slice() {
            ["game", "0", "play", "attacker", from, to] => {
                // The server writes 13x13 files in capitals.
                let square = |s: &str| AnySquare::parse(s, size).unwrap();
                let mv = AnyMove::new(square(from), square(to)).unwrap();
                if let Err(e) = game.play(mv) {
                    panic!("the server played {mv}, which hnefi's rules refuse: {e}");
                }
                after_ply(game.moves_played());
            }
            ["game", "0", "generate_move", "defender"] => {
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
                writeln!(out, "game 0 play defender {} {}", mv.from, mv.to).unwrap();
                after_ply(game.moves_played());
            }
            ["?", "game", ..] => panic!("the server refused the random client's move: {line}"),
            ["=", "game_over", "0", result] => break (*result).to_string(),
            ["=", "draw", "accept"] => break "draw".to_string(),
            _ => {}
        }
    };
    let plies = game.moves_played();
    eprintln!(
        "random client: game 0 {result} after {plies} plies (hnefi's rules: {})",
        game.status()
    );
    assert!(
        game.status().is_over() && agrees(&result, game.status()),
        "the server's result {result}, hnefi's rules: {}",
        game.status()
    );
    (result, plies)
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
    let listed = Command::new(&exe)
        .args(["--list", "--ignored"])
        .output()
        .unwrap();
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
    ] {
        assert!(
            listed.contains(&format!("bot_server::{name}: test")),
            "{name}: {listed}"
        );
    }
    let missing = std::env::temp_dir().join("hnefi-no-such-server");
    let out = Command::new(&exe)
        .args([
            "--exact",
            "bot_server::timed_game_between_two_bots",
            "--ignored",
        ])
        .env("HNEFI_SERVER", &missing)
        .env_remove("HNEFI_IN_NETNS")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success(), "{text}");
    assert!(text.contains("hnefatafl-server 6.4.1 not found"), "{text}");
}
