package reduce

import "github.com/robotstat/robotstat/schema"

// writer buffers the rows of the reduce step's tables. site_bots goes
// through the bots encoder as blocks, one per site (its bots share the
// site's key and take a few distinct verdict tuples), which is several
// times cheaper than building and encoding its rows one by one.
//
// A step running beside others writes through a writer of its own (held):
// it encodes its rows into row groups it keeps (schema's Held
// LocalWriters), sealed at the end of the step, and the loop releases them
// to the tables in partition order, so that the encoding is the step's
// and the rows come in the same order for any number of workers.
type writer struct {
	sitesT   *schema.TableWriter[schema.SiteRow]
	botsT    *schema.TableWriter[schema.SiteBotRow]
	sites    interface{ Write([]schema.SiteRow) error }
	bots     *schema.LocalWriter[schema.SiteBotRow]
	historyT *schema.TableWriter[schema.SiteHistoryRow]
	history  interface {
		Write([]schema.SiteHistoryRow) error
	}
	domains     *schema.TableWriter[schema.DomainRow]      // nil in a held writer: domains reach the tables through apply
	heldSites   *schema.LocalWriter[schema.SiteRow]        // a held writer's; nil otherwise
	heldHistory *schema.LocalWriter[schema.SiteHistoryRow] // a held writer's; nil otherwise
	siteRows    []schema.SiteRow
	domainRows  []schema.DomainRow
	blocks      []schema.BotsBlock
	historyRows []schema.SiteHistoryRow
}

func newWriter(ds *schema.Dataset) *writer {
	w := &writer{sitesT: schema.WriterOf[schema.SiteRow](ds), botsT: schema.WriterOf[schema.SiteBotRow](ds),
		historyT: schema.WriterOf[schema.SiteHistoryRow](ds), domains: schema.WriterOf[schema.DomainRow](ds)}
	w.sites, w.bots, w.history = w.sitesT, w.botsT.Local(), w.historyT
	return w
}

// held returns a writer of sites and site_bots rows for one step, whose
// row groups reach the tables at release.
func (w *writer) held() *writer {
	h := &writer{sitesT: w.sitesT, botsT: w.botsT, historyT: w.historyT,
		heldSites: w.sitesT.Held(), bots: w.botsT.Held(), heldHistory: w.historyT.Held()}
	h.sites, h.history = h.heldSites, h.heldHistory
	return h
}

// seal encodes what a held writer holds, in the step's goroutine.
func (w *writer) seal() error {
	if err := w.flush(); err != nil {
		return err
	}
	if err := w.heldSites.Seal(); err != nil {
		return err
	}
	if err := w.heldHistory.Seal(); err != nil {
		return err
	}
	return w.bots.Seal()
}

// release hands a held writer's row groups to the tables.
func (w *writer) release() error {
	if err := w.heldSites.Release(); err != nil {
		return err
	}
	if err := w.heldHistory.Release(); err != nil {
		return err
	}
	return w.bots.Release()
}

const (
	writeBatch  = 8192
	blocksBatch = 256 // sites' worth of site_bots rows (about 25,000)
)

func (w *writer) site(r schema.SiteRow) error {
	w.siteRows = append(w.siteRows, r)
	if len(w.siteRows) >= writeBatch {
		return w.flush()
	}
	return nil
}

// siteBots adds the site_bots rows of one site; b's slices must stay
// unchanged until the next flush.
func (w *writer) siteBots(b schema.BotsBlock) error {
	w.blocks = append(w.blocks, b)
	if len(w.blocks) >= blocksBatch {
		return w.flush()
	}
	return nil
}

func (w *writer) domain(r schema.DomainRow) error {
	w.domainRows = append(w.domainRows, r)
	if len(w.domainRows) >= writeBatch {
		return w.flush()
	}
	return nil
}

func (w *writer) historyRow(r schema.SiteHistoryRow) error {
	w.historyRows = append(w.historyRows, r)
	if len(w.historyRows) >= writeBatch {
		return w.flush()
	}
	return nil
}

func (w *writer) flush() error {
	if err := w.sites.Write(w.siteRows); err != nil {
		return err
	}
	if err := schema.WriteBots(w.bots, w.blocks); err != nil {
		return err
	}
	if err := w.history.Write(w.historyRows); err != nil {
		return err
	}
	if err := w.domains.Write(w.domainRows); err != nil {
		return err
	}
	clear(w.blocks) // drop the references to the sets they name
	w.siteRows, w.blocks, w.historyRows, w.domainRows = w.siteRows[:0], w.blocks[:0], w.historyRows[:0], w.domainRows[:0]
	return nil
}

// close writes out what the writer holds; the dataset's commit closes the
// files.
func (w *writer) close() error {
	if err := w.flush(); err != nil {
		return err
	}
	return w.bots.Flush()
}
