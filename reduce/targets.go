package reduce

import (
	"slices"
	"sort"
)

// resolveTargets is stage B: for every URL some redirect leads to, the
// best result of following it with at most maxHops-1 further redirects
// (the candidate's own redirect is the first). It is a layered dynamic
// programme over the redirect graph:
//
//	res_0(u) = the best of u's answering captures, or resultLimit when u only redirects
//	res_h(u) = the best of u's answering captures, resultNoLocation if one of
//	           u's captures is a 3xx without a Location, and, for each
//	           redirect u -> v, follow(res_(h-1)(v)) (resultNotCaptured when
//	           the crawl never fetched v)
//
// Targets in other partitions are reached by spilling hopRequests to their
// partition and the answers (urlResult) back, one round per layer. It
// returns the spill of res_(maxHops-1) by partition (urlResult records).
func (c *crawlRun) resolveTargets(caps, targets *spill) (*spill, error) {
	sp, err := c.newSpills("nodes", "res-a", "res-b", "requests", "answers")
	if err != nil {
		return nil, err
	}
	nodes, layer, next, reqs, answers := sp[0], sp[1], sp[2], sp[3], sp[4]
	err = c.steps(int(c.parts), []*spill{nodes, layer, reqs}, func(p int, o *stepOut) error {
		return targetNodes(p, c.parts, targets, caps, o.sinks[0], o.sinks[1], o.sinks[2])
	}, nil)
	if err != nil {
		return nil, err
	}
	for range maxHops - 1 {
		if err := c.ctx.Err(); err != nil {
			return nil, err
		}
		if err := answers.reset(); err != nil {
			return nil, err
		}
		err := c.steps(int(c.parts), []*spill{answers}, func(q int, o *stepOut) error {
			return answerHops(q, layer, reqs, o.sinks[0])
		}, nil)
		if err != nil {
			return nil, err
		}
		if err := next.reset(); err != nil {
			return nil, err
		}
		err = c.steps(int(c.parts), []*spill{next}, func(p int, o *stepOut) error {
			return nextLayer(p, answers, nodes, o.sinks[0])
		}, nil)
		if err != nil {
			return nil, err
		}
		layer, next = next, layer
	}
	// Only the last layer is needed from here on.
	if err := removeSpills(nodes, next, reqs, answers); err != nil {
		return nil, err
	}
	return layer, nil
}

// node is a redirect target URL in memory while its partition's nodes are
// made: the best of its captures that answer, and where its redirecting
// captures lead ("" for a 3xx without a Location).
type node struct {
	seen  bool   // the crawl has a capture of this URL
	best  result // best answering capture; no ans when none
	edges []string
}

// targetNodes makes the nodes of partition p: every target URL of the
// partition that the crawl captured, from the partition's captures. It
// writes each node (nodeRec) and its res_0 (urlResult) to partition p of
// nodes and layer, and a hopRequest for each of its redirects to the
// target's partition of reqs. Nodes go out in URL order, so that every
// later pass is deterministic.
func targetNodes(p int, parts partitioner, targets, caps *spill, nodes, layer, reqs sink) error {
	want, err := readNodes(p, targets, caps)
	if err != nil {
		return err
	}
	urls := make([]string, 0, len(want))
	for u, n := range want {
		if n.seen { // a target never captured has no node: lookups say so
			urls = append(urls, u)
		}
	}
	sort.Strings(urls)
	var rec nodeRec
	var req hopRequest
	var res urlResult
	for _, u := range urls {
		n := want[u]
		rec = nodeRec{url: u, own: n.best, noLocation: slices.Contains(n.edges, "")}
		if err := nodes.put(p, &rec); err != nil {
			return err
		}
		for _, e := range n.edges {
			if e != "" {
				req = hopRequest{target: e, from: p, url: u}
				if err := reqs.put(parts.of(authority(e)), &req); err != nil {
					return err
				}
			}
		}
		res = urlResult{url: u, res: n.best}
		if res.res.ans == nil { // only redirects here, and none may be followed
			res.res = resultLimit
		}
		if err := layer.put(p, &res); err != nil {
			return err
		}
	}
	return nil
}

// readNodes returns the target URLs of partition p, each with what the
// partition's captures of it say.
func readNodes(p int, targets, caps *spill) (map[string]*node, error) {
	want := map[string]*node{}
	var t targetRec
	if err := targets.read(p, &t, func() error {
		if _, ok := want[t.url]; !ok {
			want[t.url] = &node{best: result{class: classUnresolved}}
		}
		return nil
	}); err != nil || len(want) == 0 {
		return want, err
	}
	var k captureRec
	err := caps.read(p, &k, func() error {
		n := want[k.url]
		if n == nil {
			return nil
		}
		n.seen = true
		if k.class == classRedirect {
			if !slices.Contains(n.edges, k.target) {
				n.edges = append(n.edges, k.target)
			}
			return nil
		}
		if r := k.answer(); n.best.ans == nil || better(&r, &n.best) {
			n.best = r
		}
		return nil
	})
	return want, err
}

// answerHops answers the hopRequests of partition q from the previous
// layer's results of q, each to the asking node's partition of answers.
func answerHops(q int, layer, reqs *spill, answers sink) error {
	prev, err := loadResults(layer, q)
	if err != nil {
		return err
	}
	var req hopRequest
	var ans urlResult
	return reqs.read(q, &req, func() error {
		ans = urlResult{url: req.url, res: reached(prev, req.target)}
		return answers.put(req.from, &ans)
	})
}

// nextLayer writes the next layer's result of every node of partition p:
// the best of its answers, its own answering capture and, when one of its
// captures is a 3xx without a Location, resultNoLocation.
func nextLayer(p int, answers, nodes *spill, next sink) error {
	best := map[string]result{}
	var ans urlResult
	if err := answers.read(p, &ans, func() error {
		if old, ok := best[ans.url]; !ok || better(&ans.res, &old) {
			best[ans.url] = ans.res
		}
		return nil
	}); err != nil {
		return err
	}
	var n nodeRec
	var res urlResult
	return nodes.read(p, &n, func() error {
		r, ok := best[n.url]
		if n.own.ans != nil && (!ok || better(&n.own, &r)) {
			r, ok = n.own, true
		}
		if nl := resultNoLocation; n.noLocation && (!ok || better(&nl, &r)) {
			r = nl
		}
		res = urlResult{url: n.url, res: r}
		return next.put(p, &res)
	})
}

// loadResults reads partition p of a results spill into a map.
func loadResults(s *spill, p int) (map[string]result, error) {
	m := map[string]result{}
	var r urlResult
	err := s.read(p, &r, func() error {
		m[r.url] = r.res
		return nil
	})
	return m, err
}
