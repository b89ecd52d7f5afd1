//! The connection to the server: connect, log in, read lines on a thread of their own,
//! write lines, and the backoff between reconnections.

use std::io::{self, BufRead, BufReader, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::sync::mpsc::Sender;
use std::time::Duration;

use thiserror::Error;

use super::Event;
use super::log::Log;
use super::message::{ClientMessage, SERVER_RELEASE, ServerMessage, VERSION_ID};

/// The longest line read; longer ones are skipped whole (the server's lobby updates are
/// the longest lines, a few kilobytes on a busy server).
pub(crate) const MAX_LINE: usize = 16 << 20;

/// How long a connection attempt and the login may take.
const LOGIN_TIMEOUT: Duration = Duration::from_secs(30);

/// Why a connection or login failed.
#[derive(Debug, Error)]
pub enum ConnectError {
    /// No address or no connection.
    #[error("cannot connect to {address}: {error}")]
    Connect {
        /// host:port.
        address: String,
        /// Why.
        error: io::Error,
    },
    /// The server speaks another protocol version.
    #[error(
        "the server refused protocol version {sent}: hnefi speaks {VERSION_ID} (the protocol of hnefatafl-copenhagen {SERVER_RELEASE}) and the server wants the VERSION_ID of its own release (it answers `version` after a login; see `hnefatafl-server --version`); hnefi must be updated for it, or given that id with --version-id if the protocol is unchanged"
    )]
    WrongVersion {
        /// The version id sent.
        sent: String,
    },
    /// The server refused the account or password.
    #[error("the server refused the login: {0}")]
    Refused(String),
    /// The connection failed during the login.
    #[error("connection lost during the login: {0}")]
    Io(#[from] io::Error),
    /// The system refused the connection's reader thread.
    #[error(transparent)]
    Thread(#[from] crate::thread::SpawnError),
}

impl ConnectError {
    /// True when trying again later cannot help.
    pub(crate) fn is_permanent(&self) -> bool {
        matches!(self, ConnectError::WrongVersion { .. })
    }
}

/// What one read produced.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum ReadLine {
    /// A line, without its newline (invalid UTF-8 replaced).
    Line(String),
    /// A line longer than the limit, skipped.
    TooLong(usize),
    /// End of the stream.
    Eof,
}

/// Reads one line of at most `max` bytes; a longer one is consumed and reported.
pub(crate) fn read_line(reader: &mut impl BufRead, max: usize) -> io::Result<ReadLine> {
    let mut line = Vec::new();
    let mut total = 0usize;
    loop {
        let buf = match reader.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            if total == 0 {
                return Ok(ReadLine::Eof);
            }
            break;
        }
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        total = total.saturating_add(chunk.len());
        if total <= max {
            line.extend_from_slice(chunk);
        }
        let used = done.unwrap_or(buf.len());
        reader.consume(used);
        if done.is_some() {
            break;
        }
    }
    if total > max {
        return Ok(ReadLine::TooLong(total));
    }
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    Ok(ReadLine::Line(String::from_utf8_lossy(&line).into_owned()))
}

/// A live connection: the writing half (the reading half runs on its own thread).
pub(crate) struct Connection {
    stream: TcpStream,
}

impl Connection {
    /// Connects, logs in with `login` (a [`ClientMessage::Login`]) and starts the reader
    /// thread, which sends [`Event::Line`] and finally [`Event::Closed`] to `events`.
    pub(crate) fn open(
        host: &str,
        port: u16,
        login: &ClientMessage,
        generation: u64,
        events: Sender<Event>,
        log: &Log,
    ) -> Result<Connection, ConnectError> {
        let address = format!("{host}:{port}");
        let connect_error = |error| ConnectError::Connect {
            address: address.clone(),
            error,
        };
        let addrs: Vec<_> = address.to_socket_addrs().map_err(connect_error)?.collect();
        let mut last = io::Error::new(io::ErrorKind::NotFound, "no address");
        let mut stream = None;
        for a in addrs {
            match TcpStream::connect_timeout(&a, LOGIN_TIMEOUT) {
                Ok(s) => {
                    stream = Some(s);
                    break;
                }
                Err(e) => last = e,
            }
        }
        let stream = stream.ok_or_else(|| connect_error(last))?;
        // Moves are single short lines: send them at once.
        stream.set_nodelay(true)?;
        stream.set_read_timeout(Some(LOGIN_TIMEOUT))?;
        let mut conn = Connection { stream };
        conn.send(login, log)?;
        let mut reader = BufReader::new(conn.stream.try_clone()?);
        loop {
            let line = match read_line(&mut reader, MAX_LINE)? {
                ReadLine::Line(l) => l,
                ReadLine::TooLong(_) => continue,
                ReadLine::Eof => {
                    return Err(ConnectError::Io(io::Error::new(
                        io::ErrorKind::UnexpectedEof,
                        "the server closed the connection",
                    )));
                }
            };
            log.received(&line);
            match ServerMessage::parse(&line) {
                Ok(ServerMessage::LoginOk) => break,
                Ok(ServerMessage::WrongVersion) => {
                    let sent = match login {
                        ClientMessage::Login { version, .. } => version.clone(),
                        _ => String::new(),
                    };
                    return Err(ConnectError::WrongVersion { sent });
                }
                Ok(ServerMessage::LoginRefused(why)) => return Err(ConnectError::Refused(why)),
                _ => {}
            }
        }
        conn.stream.set_read_timeout(None)?;
        crate::thread::spawn("bot connection", move || {
            let why = loop {
                match read_line(&mut reader, MAX_LINE) {
                    Ok(ReadLine::Line(l)) => {
                        if events.send(Event::Line(generation, l)).is_err() {
                            return;
                        }
                    }
                    Ok(ReadLine::TooLong(n)) => {
                        let _ = events.send(Event::Line(
                            generation,
                            format!("# skipped a line of {n} bytes"),
                        ));
                    }
                    Ok(ReadLine::Eof) => break "the server closed the connection".to_string(),
                    Err(e) => break e.to_string(),
                }
            };
            let _ = events.send(Event::Closed(generation, why));
        })?;
        Ok(conn)
    }

    /// Sends one message (logged redacted with `--debug`).
    pub(crate) fn send(&mut self, msg: &ClientMessage, log: &Log) -> io::Result<()> {
        log.sent(&msg.redacted());
        let mut line = msg.line();
        line.push('\n');
        self.stream.write_all(line.as_bytes())
    }

    /// Closes both halves (the reader thread then ends).
    pub(crate) fn close(&self) {
        let _ = self.stream.shutdown(std::net::Shutdown::Both);
    }
}

/// The wait before reconnection attempt `attempt` (0 first): 1, 2, 4, ... seconds, at
/// most a minute. The server itself makes a failed login wait 2, 4, 8 and 16 seconds
/// before the next one.
pub(crate) fn backoff(attempt: u32) -> Duration {
    Duration::from_secs(1u64 << attempt.min(6)).min(Duration::from_secs(60))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_bounded() {
        let data = b"short\r\nlonger line\nxxxxxxxxxxxxxxxxxxxx\n\xff\xfeok\nlast";
        let mut r = io::BufReader::with_capacity(4, &data[..]);
        assert_eq!(
            read_line(&mut r, 12).unwrap(),
            ReadLine::Line("short".into())
        );
        assert_eq!(
            read_line(&mut r, 12).unwrap(),
            ReadLine::Line("longer line".into())
        );
        assert_eq!(read_line(&mut r, 12).unwrap(), ReadLine::TooLong(20));
        assert_eq!(
            read_line(&mut r, 12).unwrap(),
            ReadLine::Line("\u{fffd}\u{fffd}ok".into())
        );
        assert_eq!(
            read_line(&mut r, 12).unwrap(),
            ReadLine::Line("last".into())
        );
        assert_eq!(read_line(&mut r, 12).unwrap(), ReadLine::Eof);
    }

    #[test]
    fn backoff_grows_to_a_minute() {
        let waits: Vec<u64> = (0..9).map(|a| backoff(a).as_secs()).collect();
        assert_eq!(waits, [1, 2, 4, 8, 16, 32, 60, 60, 60]);
    }
}
