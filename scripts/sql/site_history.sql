-- site_history as one DuckDB query over relations named sites and
-- site_bots (robotstat's tables of those names): one row per host and
-- catalog bot over every crawl, crawls taken in date order (crawl_date,
-- undated crawls last, the unknown crawl last on a date, then by name).
-- "Fully blocked" is verdict full on a parsed site. CI checks that it
-- returns exactly the rows of the site_history table robotstat sites
-- writes (scripts/verify, TestSiteHistorySQLTwin).
WITH crawls AS (
    SELECT crawl, any_value(crawl_date) AS crawl_date FROM sites GROUP BY crawl
), ordered AS (
    SELECT crawl, crawl_date,
           row_number() OVER (ORDER BY crawl_date IS NULL, crawl_date, crawl IS NULL, crawl) AS pos
    FROM crawls
), n AS (
    SELECT count(*) AS crawls FROM crawls
), hosts AS (
    SELECT s.host,
           count(*) AS crawls,
           count(*) FILTER (WHERE s.outcome = 'parsed') AS parsed_crawls,
           arg_min_null(s.crawl, o.pos) AS first_crawl,
           arg_max_null(s.crawl, o.pos) AS last_crawl,
           arg_max_null(s.registered_domain, o.pos) AS registered_domain,
           arg_max_null(s.rank, o.pos) AS rank
    FROM sites s JOIN ordered o ON o.crawl IS NOT DISTINCT FROM s.crawl
    GROUP BY s.host
), bots AS (
    SELECT b.host, b.bot, b.operator, b.category, b.verdict, b.matched, o.pos, s.outcome = 'parsed' AS parsed
    FROM site_bots b
    JOIN sites s ON s.crawl IS NOT DISTINCT FROM b.crawl AND s.host = b.host
    JOIN ordered o ON o.crawl IS NOT DISTINCT FROM b.crawl
), p AS (
    SELECT *, lag(verdict) OVER (PARTITION BY host, bot ORDER BY pos) AS previous FROM bots WHERE parsed
), per AS (
    SELECT host, bot,
           min(pos) FILTER (WHERE verdict = 'full') AS first_full,
           max(pos) FILTER (WHERE verdict = 'full') AS last_full,
           count(*) FILTER (WHERE verdict = 'full') AS full_crawls,
           count(*) FILTER (WHERE previous IS NOT NULL AND previous <> verdict) AS changes,
           arg_max(verdict, pos) AS last_verdict
    FROM p GROUP BY host, bot
), unblocked AS (
    SELECT p.host, p.bot, min(p.pos) AS pos
    FROM p JOIN per USING (host, bot)
    WHERE p.verdict <> 'full' AND p.pos > per.first_full
    GROUP BY p.host, p.bot
), ident AS (
    -- a bot's operator and category as its first crawl's catalog says
    SELECT host, bot, arg_min(operator, pos) AS operator, arg_min(category, pos) AS category FROM bots GROUP BY host, bot
)
SELECT i.host, h.registered_domain, i.bot, i.operator, i.category,
       h.crawls::INTEGER AS crawls, h.parsed_crawls::INTEGER AS parsed_crawls, h.parsed_crawls = n.crawls AS panel,
       h.first_crawl, h.last_crawl,
       ff.crawl AS first_full_crawl, ff.crawl_date AS first_full_date, fm.matched AS first_full_matched,
       lf.crawl AS last_full_crawl, coalesce(per.full_crawls, 0)::INTEGER AS full_crawls,
       ub.crawl AS unblocked_crawl, coalesce(per.changes, 0)::INTEGER AS changes, per.last_verdict, h.rank,
       NULL::VARCHAR AS crawl -- a row spans every crawl (schema/README.md)
FROM ident i
JOIN hosts h USING (host)
CROSS JOIN n
LEFT JOIN per USING (host, bot)
LEFT JOIN ordered ff ON ff.pos = per.first_full
LEFT JOIN ordered lf ON lf.pos = per.last_full
LEFT JOIN p fm ON fm.host = i.host AND fm.bot = i.bot AND fm.pos = per.first_full
LEFT JOIN unblocked u ON u.host = i.host AND u.bot = i.bot
LEFT JOIN ordered ub ON ub.pos = u.pos
