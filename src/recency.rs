//! Positions (blocks of a message, messages of a session) in the order they last changed,
//! so that "what changed since revision r" costs what changed, not the number of
//! positions: a doubly linked list over the positions, the newest last.

const NIL: u32 = u32::MAX;

#[derive(Debug, Clone, Copy)]
struct Node {
    revision: u64,
    prev: u32,
    next: u32,
}

/// See the module docs. Positions are `0..len()`, each added by its first
/// [`Recency::touch`].
#[derive(Debug, Clone)]
pub(crate) struct Recency {
    nodes: Vec<Node>,
    newest: u32,
}

impl Default for Recency {
    fn default() -> Recency {
        Recency {
            nodes: Vec::new(),
            newest: NIL,
        }
    }
}

impl Recency {
    /// Position `i` changed at `revision` (no older than any before it). Positions past
    /// the end up to `i` are added, changed at `revision` too.
    pub(crate) fn touch(&mut self, i: usize, revision: u64) {
        if self.newest as usize == i && i < self.nodes.len() {
            self.nodes[i].revision = revision;
            return;
        }
        if i < self.nodes.len() {
            self.unlink(i);
        } else {
            while self.nodes.len() < i {
                let j = self.nodes.len();
                self.nodes.push(Node {
                    revision,
                    prev: NIL,
                    next: NIL,
                });
                self.link_newest(j);
            }
            self.nodes.push(Node {
                revision,
                prev: NIL,
                next: NIL,
            });
        }
        self.nodes[i].revision = revision;
        self.link_newest(i);
    }

    /// The positions that changed after `revision`, in ascending order.
    pub(crate) fn since(&self, revision: u64) -> Vec<usize> {
        let mut out = Vec::new();
        let mut at = self.newest;
        while let Some(node) = self.nodes.get(at as usize)
            && node.revision > revision
        {
            out.push(at as usize);
            at = node.prev;
        }
        out.sort_unstable();
        out
    }

    /// Forgets every position.
    pub(crate) fn clear(&mut self) {
        self.nodes.clear();
        self.newest = NIL;
    }

    fn unlink(&mut self, i: usize) {
        let Node { prev, next, .. } = self.nodes[i];
        if let Some(p) = self.nodes.get_mut(prev as usize) {
            p.next = next;
        }
        match self.nodes.get_mut(next as usize) {
            Some(n) => n.prev = prev,
            None => self.newest = prev,
        }
    }

    fn link_newest(&mut self, i: usize) {
        let newest = self.newest;
        if let Some(n) = self.nodes.get_mut(newest as usize) {
            n.next = i as u32;
        }
        self.nodes[i].prev = newest;
        self.nodes[i].next = NIL;
        self.newest = i as u32;
    }
}

#[cfg(test)]
mod tests {
    use super::Recency;

    #[test]
    fn since_lists_what_changed_after_a_revision() {
        let mut r = Recency::default();
        r.touch(0, 1);
        r.touch(1, 2);
        r.touch(2, 3);
        assert_eq!(r.since(0), vec![0, 1, 2]);
        assert_eq!(r.since(2), vec![2]);
        r.touch(0, 4); // the oldest becomes the newest
        assert_eq!(r.since(3), vec![0]);
        assert_eq!(r.since(1), vec![0, 1, 2]);
        r.touch(1, 5); // from the middle
        assert_eq!(r.since(3), vec![0, 1]);
        r.touch(1, 6); // the newest again
        assert_eq!(r.since(5), vec![1]);
        r.touch(5, 7); // past the end: 3 and 4 are added too
        assert_eq!(r.since(6), vec![3, 4, 5]);
        assert_eq!(r.since(0), vec![0, 1, 2, 3, 4, 5]);
        assert_eq!(r.since(7), Vec::<usize>::new());
        r.clear();
        assert_eq!(r.since(0), Vec::<usize>::new());
    }
}
