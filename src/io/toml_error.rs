//! A TOML error said by line and column, never quoting the file: the file may be anything the
//! user pointed at (`weights = "/etc/passwd"`), and its lines are not for the terminal.

/// The error's message and where it is, as `line L, column C: MESSAGE`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct TomlError(String);

impl TomlError {
    /// `error` from parsing `text`.
    pub fn new(error: &toml::de::Error, text: &str) -> TomlError {
        let message = error.message().trim_end();
        TomlError(match error.span() {
            Some(span) => {
                let before = &text[..floor_char_boundary(text, span.start)];
                let line = before.matches('\n').count() + 1;
                let column = before[before.rfind('\n').map_or(0, |i| i + 1)..]
                    .chars()
                    .count()
                    + 1;
                format!("line {line}, column {column}: {message}")
            }
            None => message.to_string(),
        })
    }
}

impl TomlError {
    /// `error` from reading a TOML value already parsed (no text, so nothing to quote): its
    /// whole message, the key it names included, on one line.
    pub fn of_value(error: &toml::de::Error) -> TomlError {
        let text = error.to_string();
        TomlError(
            text.lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .collect::<Vec<_>>()
                .join(" "),
        )
    }
}

/// The largest char boundary of `text` at or before `i`.
fn floor_char_boundary(text: &str, i: usize) -> usize {
    let mut i = i.min(text.len());
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_error_names_line_and_column_and_never_quotes_the_file() {
        let text = "# a comment\nroot:x:0:0:root:/root:/bin/bash\n";
        let e = text.parse::<toml::Table>().unwrap_err();
        let said = TomlError::new(&e, text).to_string();
        assert!(said.starts_with("line 2, column 5: "), "{said}");
        assert!(!said.contains("root"), "{said}");
    }
}
