package reduce

import "github.com/robotstat/robotstat/schema"

// writer buffers the rows of the reduce step's tables. site_bots goes
// through the bots encoder as blocks, one per site (its bots share the
// site's key and take a few distinct verdict tuples), which is several
// times cheaper than building and encoding its rows one by one.
type writer struct {
	sites       *schema.TableWriter[schema.SiteRow]
	bots        *schema.LocalWriter[schema.SiteBotRow]
	history     *schema.TableWriter[schema.SiteHistoryRow]
	domains     *schema.TableWriter[schema.DomainRow]
	siteRows    []schema.SiteRow
	domainRows  []schema.DomainRow
	blocks      []schema.BotsBlock
	historyRows []schema.SiteHistoryRow
}

func newWriter(ds *schema.Dataset) *writer {
	return &writer{sites: schema.WriterOf[schema.SiteRow](ds), bots: schema.WriterOf[schema.SiteBotRow](ds).Local(),
		history: schema.WriterOf[schema.SiteHistoryRow](ds), domains: schema.WriterOf[schema.DomainRow](ds)}
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
