//! A bounded list of kept entries whose oldest is replaced first once it is full: the
//! empty board's searches each resumed kernel keeps for its last few starts.

use std::ops::{Index, IndexMut};

/// Up to `cap` entries (given at each [`Ring::keep`]), allocated as they come.
pub(super) struct Ring<T> {
    items: Vec<T>,
    /// The entry the next new one replaces once the ring is full.
    evict: usize,
}

impl<T> Default for Ring<T> {
    fn default() -> Ring<T> {
        Ring {
            items: Vec::new(),
            evict: 0,
        }
    }
}

impl<T> Ring<T> {
    /// The index of the first entry `f` accepts.
    pub(super) fn position(&self, f: impl FnMut(&T) -> bool) -> Option<usize> {
        self.items.iter().position(f)
    }

    /// The entry the next [`Ring::keep`] replaces, taken out so that its allocations are
    /// reused, once `cap` are kept; a new one before.
    pub(super) fn take_oldest(&mut self, cap: usize) -> T
    where
        T: Default,
    {
        if self.items.len() < cap {
            T::default()
        } else {
            std::mem::take(&mut self.items[self.evict])
        }
    }

    /// Keeps `item`, replacing the oldest entry once `cap` are kept; returns its index.
    pub(super) fn keep(&mut self, item: T, cap: usize) -> usize {
        if self.items.len() < cap {
            self.items.push(item);
            self.items.len() - 1
        } else {
            let e = self.evict;
            self.items[e] = item;
            self.evict = (e + 1) % cap;
            e
        }
    }
}

impl<T> Index<usize> for Ring<T> {
    type Output = T;

    fn index(&self, i: usize) -> &T {
        &self.items[i]
    }
}

impl<T> IndexMut<usize> for Ring<T> {
    fn index_mut(&mut self, i: usize) -> &mut T {
        &mut self.items[i]
    }
}

#[cfg(test)]
mod tests {
    use super::Ring;

    #[test]
    fn the_oldest_entry_goes_first_once_full() {
        let mut r = Ring::default();
        assert_eq!((r.keep('a', 2), r.keep('b', 2)), (0, 1));
        assert_eq!(r.keep('c', 2), 0);
        assert_eq!(r.keep('d', 2), 1);
        assert_eq!(r.keep('e', 2), 0);
        assert_eq!((r[0], r[1]), ('e', 'd'));
        assert_eq!(r.position(|&c| c == 'd'), Some(1));
        assert_eq!(r.position(|&c| c == 'a'), None);
        // The entry taken out is the one the next `keep` replaces; none is taken before.
        let mut r = Ring::default();
        assert_eq!(r.take_oldest(2), String::new());
        r.keep("a".to_string(), 2);
        r.keep("b".to_string(), 2);
        assert_eq!(r.take_oldest(2), "a");
        assert_eq!(r.keep("c".to_string(), 2), 0);
    }
}
