package screendiff

// AfterRefs returns the refs of the nodes of the after screen that change k
// of r.Changes stands for, in document order, as a matcher with no `to`
// takes them in on the after side:
//   - added, possible-replacement and moved: the root and every node inside
//     it (what was added, or carried along);
//   - state and style: the changed node, and the nodes inside it whose
//     inherited field (disabled, visible) changed the same way and was
//     folded into it (the items of a menu that was shown);
//   - content and resized: the changed node alone (a content matcher also
//     takes in the nodes that hold it, whose text reads it: they did not
//     change themselves);
//   - removed: none.
//
// A recorded step's end picks the nodes it pins from these
// (docs/screen-diffs.md, Ends), so that an end and an assertChange agree
// on what a step changed.
func (r *Result) AfterRefs(k int) []string {
	c := r.Changes[k]
	if c.After == nil || c.Kind == Removed {
		return nil
	}
	t := r.after
	q, ok := t.position(c.After.Ref)
	if !ok {
		return nil
	}
	switch c.Kind {
	case Added, PossibleReplacement, Moved:
		out := make([]string, 0, t.end[q]-q)
		for p := q; p < t.end[q]; p++ {
			out = append(out, t.nodes[p].Ref)
		}
		return out
	case State, Style:
		out := []string{c.After.Ref}
		for p := q + 1; p < t.end[q]; p++ {
			if r.folded(Matcher{}, c, t.nodes[p].Ref) {
				out = append(out, t.nodes[p].Ref)
			}
		}
		return out
	}
	return []string{c.After.Ref}
}
