//! Fresh movie GUIDs in FCEUX's `452DE2C3-EF43-2FA9-77AC-0677FC51543B` form, made from the
//! clock, the process id and a counter (no RNG crate needed: they only have to differ).

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use md5::{Digest, Md5};

static COUNTER: AtomicU64 = AtomicU64::new(0);

/// A new GUID string. Hashing time, pid and a per-process counter spreads the bits, so two
/// movies recorded in the same nanosecond by different processes or threads still differ.
pub fn fresh_guid() -> String {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    let mut hasher = Md5::new();
    hasher.update(nanos.to_le_bytes());
    hasher.update(std::process::id().to_le_bytes());
    hasher.update(COUNTER.fetch_add(1, Ordering::Relaxed).to_le_bytes());
    format_guid(&hasher.finalize().into())
}

/// FCEUX's layout: 4-2-2-2-6 bytes as uppercase hex, joined by dashes.
fn format_guid(bytes: &[u8; 16]) -> String {
    let hex = |range: std::ops::Range<usize>| -> String {
        bytes[range].iter().map(|b| format!("{b:02X}")).collect()
    };
    format!(
        "{}-{}-{}-{}-{}",
        hex(0..4),
        hex(4..6),
        hex(6..8),
        hex(8..10),
        hex(10..16)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guid_has_fceux_shape_and_differs_each_call() {
        let a = fresh_guid();
        let b = fresh_guid();
        assert_ne!(a, b);
        let groups: Vec<usize> = a.split('-').map(str::len).collect();
        assert_eq!(groups, [8, 4, 4, 4, 12], "{a}");
        assert!(a
            .chars()
            .all(|c| c == '-' || c.is_ascii_digit() || c.is_ascii_uppercase()));
    }

    #[test]
    fn guid_layout() {
        let bytes: [u8; 16] = std::array::from_fn(|i| i as u8 * 17);
        assert_eq!(format_guid(&bytes), "00112233-4455-6677-8899-AABBCCDDEEFF");
    }
}
