//! The bot's password: from `--password` (which every user of the machine sees in `ps`),
//! from a file only its owner may open (`--password-file`), or from the environment
//! (`HNEFI_BOT_PASSWORD`). It is never logged (see [`super::log`]).

use std::io;
use std::path::{Path, PathBuf};

use thiserror::Error;

/// The environment variable read when neither flag gives the password.
pub(crate) const ENV: &str = "HNEFI_BOT_PASSWORD";

/// The longest password accepted, in bytes (as the flag always was).
const MAX_LEN: usize = 32;

/// Where the password came from, for the messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Source {
    /// `--password`.
    Flag,
    /// `--password-file`.
    File,
    /// `HNEFI_BOT_PASSWORD`.
    Env,
    /// None given: empty, as for the reference bot.
    Empty,
}

/// Why no password could be had.
#[derive(Debug, Error)]
pub(crate) enum PasswordError {
    /// The file cannot be read.
    #[error("cannot read --password-file {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// The file's mode lets other users open it.
    #[error(
        "--password-file {path} is open to other users (mode {mode:04o}): make it its owner's alone, e.g. chmod 600 {path}"
    )]
    OpenToOthers {
        /// The file.
        path: PathBuf,
        /// Its permission bits.
        mode: u32,
    },
    /// The environment variable is not text.
    #[error("{ENV} is not valid UTF-8")]
    EnvNotText,
    /// Too long, or with control characters.
    #[error("the password ({0}) must be at most 32 bytes, without control characters")]
    Invalid(&'static str),
}

impl Source {
    fn name(self) -> &'static str {
        match self {
            Source::Flag => "--password",
            Source::File => "--password-file",
            Source::Env => ENV,
            Source::Empty => "empty",
        }
    }
}

/// The password and where it came from: `flag` if given, else the first line of `file`
/// (which only its owner may read or write, on Unix), else `env` (the value of
/// [`ENV`]), else empty.
pub(crate) fn resolve(
    flag: Option<&str>,
    file: Option<&Path>,
    env: Option<std::ffi::OsString>,
) -> Result<(String, Source), PasswordError> {
    let (password, source) = match (flag, file, env) {
        (Some(p), _, _) => (p.to_string(), Source::Flag),
        (None, Some(path), _) => (read_file(path)?, Source::File),
        (None, None, Some(v)) => (
            v.into_string().map_err(|_| PasswordError::EnvNotText)?,
            Source::Env,
        ),
        (None, None, None) => (String::new(), Source::Empty),
    };
    if password.len() > MAX_LEN || password.chars().any(char::is_control) {
        return Err(PasswordError::Invalid(source.name()));
    }
    Ok((password, source))
}

/// The first line of a password file, after its mode is checked.
fn read_file(path: &Path) -> Result<String, PasswordError> {
    let read = |source| PasswordError::Read {
        path: path.to_path_buf(),
        source,
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(path).map_err(read)?.permissions().mode() & 0o777;
        if mode & 0o077 != 0 {
            return Err(PasswordError::OpenToOthers {
                path: path.to_path_buf(),
                mode,
            });
        }
    }
    let text = std::fs::read_to_string(path).map_err(read)?;
    Ok(text.lines().next().unwrap_or_default().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(name: &str, text: &str, mode: u32) -> PathBuf {
        let path = std::env::temp_dir().join(format!("hnefi-pw-{}-{name}", std::process::id()));
        std::fs::write(&path, text).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
        }
        #[cfg(not(unix))]
        let _ = mode;
        path
    }

    #[test]
    fn flag_then_file_then_environment_then_empty() {
        let f = file("order", "from-file\nsecond line\n", 0o600);
        let env = || Some("from-env".into());
        assert_eq!(
            resolve(Some("flag"), Some(&f), env()).unwrap(),
            ("flag".into(), Source::Flag)
        );
        assert_eq!(
            resolve(None, Some(&f), env()).unwrap(),
            ("from-file".into(), Source::File)
        );
        assert_eq!(
            resolve(None, None, env()).unwrap(),
            ("from-env".into(), Source::Env)
        );
        assert_eq!(
            resolve(None, None, None).unwrap(),
            (String::new(), Source::Empty)
        );
        let _ = std::fs::remove_file(f);
    }

    #[cfg(unix)]
    #[test]
    fn a_file_others_may_open_is_refused() {
        for mode in [0o640, 0o604, 0o620, 0o644] {
            let f = file(&format!("mode{mode:o}"), "pw\n", mode);
            let e = resolve(None, Some(&f), None).unwrap_err();
            assert!(
                matches!(e, PasswordError::OpenToOthers { mode: m, .. } if m == mode),
                "{e}"
            );
            assert!(!e.to_string().contains("pw\n"));
            let _ = std::fs::remove_file(f);
        }
        let f = file("mode400", "pw\r\n", 0o400);
        assert_eq!(resolve(None, Some(&f), None).unwrap().0, "pw");
        let _ = std::fs::remove_file(f);
    }

    #[test]
    fn bad_passwords_are_refused_without_being_shown() {
        for bad in ["tab\there", &"x".repeat(33)] {
            let e = resolve(Some(bad), None, None).unwrap_err();
            assert!(!e.to_string().contains(bad), "{e}");
        }
        let missing = std::env::temp_dir().join("hnefi-pw-no-such-file");
        assert!(matches!(
            resolve(None, Some(&missing), None),
            Err(PasswordError::Read { .. })
        ));
    }
}
