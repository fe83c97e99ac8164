//! Python arguments checked into the model's numbers: ranges, seeds and buttons. One rule: a
//! wrong type is a TypeError, a value out of range a ValueError naming the argument and range.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt, PyString};

pub fn value_error(msg: impl Into<String>) -> PyErr {
    PyValueError::new_err(msg.into())
}

pub fn type_error(msg: impl Into<String>) -> PyErr {
    PyTypeError::new_err(msg.into())
}

/// A Python int (or numpy integer, anything with `__index__`), never a bool, as an i128 so
/// that every out-of-range value is reported as a ValueError with the value itself.
fn integer(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<i128> {
    if obj.is_instance_of::<PyBool>() {
        return Err(type_error(format!("{what} must be an integer, got a bool")));
    }
    let index = if obj.is_instance_of::<PyInt>() {
        obj.clone()
    } else {
        obj.call_method0("__index__")
            .map_err(|_| type_error(format!("{what} must be an integer, got {}", type_name(obj))))?
    };
    index.extract::<i128>().map_err(|_| {
        value_error(format!(
            "{what} is out of range, got {}",
            index.repr().map(|r| r.to_string()).unwrap_or_default()
        ))
    })
}

/// An integer argument checked against its range (a level of 300 is a ValueError, not an
/// OverflowError deep in the conversion).
pub fn int_in(obj: &Bound<'_, PyAny>, what: &str, lo: i64, hi: i64) -> PyResult<i64> {
    let v = integer(obj, what)?;
    if v < i128::from(lo) || v > i128::from(hi) {
        return Err(value_error(format!(
            "{what} must be in {lo}..={hi}, got {v}"
        )));
    }
    Ok(v as i64)
}

fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".into())
}

/// A seed: an integer in 0..=2**64-1.
pub fn seed_of(obj: &Bound<'_, PyAny>) -> PyResult<u64> {
    let v = integer(obj, "seed")?;
    u64::try_from(v).map_err(|_| {
        value_error(format!(
            "seed must be in 0..=2**64-1 ({}), got {v}",
            u64::MAX
        ))
    })
}

const BUTTON_NAMES: [(&str, u8); 8] = [
    ("a", 0x80),
    ("b", 0x40),
    ("select", 0x20),
    ("start", 0x10),
    ("up", 0x08),
    ("down", 0x04),
    ("left", 0x02),
    ("right", 0x01),
];

/// Buttons as an int (the controller byte: A $80, B $40, Select $20, Start $10, Up $08,
/// Down $04, Left $02, Right $01), the trace form `A.....L.`, or names `"left+a"`.
pub fn buttons_of(obj: &Bound<'_, PyAny>) -> PyResult<u8> {
    if obj.is_instance_of::<PyString>() {
        let owned: String = obj.extract()?;
        let s = owned.as_str();
        if let Some(bits) = crate::bridge::buttons_from_letters(s) {
            return Ok(bits);
        }
        let mut bits = 0u8;
        let t = s.trim().to_ascii_lowercase();
        if t.is_empty() || t == "none" || t == "noop" {
            return Ok(0);
        }
        for part in t.split(['+', ',', ' ']).filter(|p| !p.is_empty()) {
            let (_, b) = BUTTON_NAMES
                .iter()
                .find(|(n, _)| *n == part)
                .ok_or_else(|| {
                    value_error(format!(
                        "unknown button {part:?} in {s:?}: use a, b, select, start, up, down, \
                         left, right joined by '+', or the trace form like 'A.....L.'"
                    ))
                })?;
            bits |= b;
        }
        return Ok(bits);
    }
    Ok(int_in(obj, "buttons", 0, 255)? as u8)
}
