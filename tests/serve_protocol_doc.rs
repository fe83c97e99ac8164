//! docs/protocol.md against the code: the RAM ranges and byte count it says the hello sends,
//! and the session it shows, are what `nestor serve` sends with the default RAM map.

use nestor::nes::AddressMap;
use nestor::serve::Ranges;

fn doc() -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/protocol.md");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn the_protocol_page_lists_the_ranges_the_hello_sends() {
    let ranges = Ranges::of_map(&AddressMap::default());
    let (listed, bytes) = (ranges.to_string(), ranges.total());
    let doc = doc();
    let said = format!("today `{listed}`, {bytes} bytes");
    assert!(doc.contains(&said), "docs/protocol.md does not say {said}");
    let hello = format!(" play ranges {listed}\n");
    assert!(
        doc.contains(&hello),
        "docs/protocol.md's session does not show {hello}"
    );
    // No other byte count or range list is given anywhere on the page.
    for line in doc.lines().filter(|l| l.contains("0017-001a")) {
        assert!(line.contains(&listed), "an outdated range list: {line}");
    }
}
