package screendiff

// A signature is what two subtree roots must share to be taken for one
// node rendered again: the same place (the after position of the parent)
// and the same reading.
type signature struct {
	parent                          int32
	tag, role, name, text, id, test string
	states                          string
}

func (d *differ) signature(t *tree, p, parent int32) signature {
	n := t.nodes[p]
	states := ""
	for _, f := range stateFields {
		states += f.get(t, p) + "|"
	}
	return signature{parent: parent, tag: n.Tag, role: n.Role, name: n.Name, text: n.Text, id: n.ID, test: n.TestID, states: states}
}

// replacements pairs removed and added roots that read the same under the
// same parent, in document order, and records every root's change.
func (d *differ) replacements() {
	d.replacedB = filled(d.b.len(), -1)
	d.replacedA = filled(d.a.len(), -1)
	if len(d.removedRoots) > 0 && len(d.addedRoots) > 0 {
		waiting := map[signature][]int32{}
		for _, j := range d.addedRoots {
			s := d.signature(d.a, j, d.a.parent[j])
			waiting[s] = append(waiting[s], j)
		}
		for _, i := range d.removedRoots {
			parent := int32(-1)
			if p := d.b.parent[i]; p >= 0 {
				parent = d.pairB[p]
			}
			s := d.signature(d.b, i, parent)
			if list := waiting[s]; len(list) > 0 {
				j := list[0]
				waiting[s] = list[1:]
				d.replacedB[i], d.replacedA[j] = j, i
			}
		}
	}
	for _, j := range d.addedRoots {
		if i := d.replacedA[j]; i >= 0 {
			d.add(Change{Kind: PossibleReplacement, Before: nodeRef(d.b.nodes[i]), After: nodeRef(d.a.nodes[j])}, i, j)
		} else {
			d.add(Change{Kind: Added, After: nodeRef(d.a.nodes[j])}, -1, j)
		}
	}
	d.removals()
}

// removals lists the removed roots, each after the changes of the last
// paired node before it in the before screen: where it was.
func (d *differ) removals() {
	last := int32(-1)
	next := 0
	for i := int32(0); i < d.b.len() && next < len(d.removedRoots); i++ {
		if i == d.removedRoots[next] {
			next++
			if d.replacedB[i] < 0 {
				d.changes = append(d.changes, keyed{
					Change: Change{Kind: Removed, Before: nodeRef(d.b.nodes[i])},
					at:     last, after: true, before: i, pos: -1, posB: i,
				})
			}
		}
		if j := d.pairB[i]; j >= 0 {
			last = j
		}
	}
}
