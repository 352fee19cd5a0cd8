-- The sites table, in DuckDB SQL: one row per crawl and host with at least one
-- capture of its /robots.txt, with the answer its robots.txt gave in that crawl
-- (RFC 9309 section 2.3.1): redirects followed through the crawl's captures, at
-- most five; a sixth, or a loop, makes the answer unavailable; a target the crawl
-- never captured, or a 3xx without a Location, leaves it unresolved. Where a URL
-- was captured more than once the best result is taken (parsed > unavailable >
-- unreachable > unresolved, then fewer redirects, then the latest fetch, then the
-- smallest capture_id); of a host's candidates the best answers (by that class,
-- then https before http, then the candidate's latest fetch, then the smallest
-- capture_id). The crawl's date is the Monday of ISO week WW for a name
-- CC-MAIN-YYYY-WW (when the week exists), else the UTC day of the lower median
-- fetch time of its captures (schema.CrawlDate). It is the same definition as
-- robotstat sites (package reduce), and CI checks that both give the same rows
-- (with the session's TimeZone set to UTC, which the median's day depends on).
--
-- It reads one relation named captures (robotstat's captures table), e.g.
--   CREATE VIEW captures AS SELECT * FROM read_parquet('out/captures/**/*.parquet');
WITH RECURSIVE
caps AS (
    SELECT capture_id, crawl, url, host, registered_domain, robots_path, scheme, fetch_time,
           http_status, status_class, outcome, redirect_target, rank,
           CASE outcome WHEN 'parsed' THEN 0 WHEN 'unavailable' THEN 1 WHEN 'unreachable' THEN 2 END AS cls
    FROM captures
),
cand AS (SELECT * FROM caps WHERE robots_path),
named AS (
    SELECT crawl, d FROM (
        SELECT crawl, try_strptime(substr(crawl, 9, 4) || '-' || substr(crawl, 14, 2) || '-1', '%G-%V-%u')::DATE AS d,
               CAST(substr(crawl, 9, 4) AS INTEGER) AS y, CAST(substr(crawl, 14, 2) AS INTEGER) AS w
        FROM (SELECT DISTINCT crawl FROM captures)
        WHERE regexp_full_match(crawl, 'CC-MAIN-[0-9]{4}-[0-9]{2}'))
    WHERE isoyear(d) = y AND week(d) = w
),
dates AS (
    SELECT m.crawl, coalesce(n.d, m.d) AS crawl_date
    FROM (SELECT crawl, quantile_disc(fetch_time, 0.5)::DATE AS d FROM captures GROUP BY crawl) m
    LEFT JOIN named n ON n.crawl = m.crawl
),
-- The URLs each redirecting candidate reaches after step redirects.
walk(crawl, cand_id, url, step) AS (
    SELECT crawl, capture_id, redirect_target, 1
    FROM cand WHERE outcome = 'redirect' AND redirect_target IS NOT NULL
    UNION
    SELECT w.crawl, w.cand_id, c.redirect_target, w.step + 1
    FROM walk w JOIN caps c ON c.crawl IS NOT DISTINCT FROM w.crawl AND c.url = w.url
    WHERE c.outcome = 'redirect' AND c.redirect_target IS NOT NULL AND w.step < 5
),
-- Where each path ends: an answering capture (cls 0-2), or none: reason 1
-- redirect-limit (cls 1, unavailable), 2 not-captured, 3 no-location (cls 3).
ends AS (
    SELECT capture_id AS cand_id, cls, 0 AS hops, capture_id AS ans_id, url AS ans_url,
           http_status AS ans_status, status_class AS ans_class, fetch_time AS ans_fetch, 0 AS reason
    FROM cand WHERE outcome <> 'redirect'
    UNION ALL
    SELECT capture_id, 3, NULL, NULL, NULL, NULL, NULL, NULL, 3
    FROM cand WHERE outcome = 'redirect' AND redirect_target IS NULL
    UNION ALL
    SELECT w.cand_id, c.cls, w.step, c.capture_id, c.url, c.http_status, c.status_class, c.fetch_time, 0
    FROM walk w JOIN caps c ON c.crawl IS NOT DISTINCT FROM w.crawl AND c.url = w.url
    WHERE c.outcome <> 'redirect'
    UNION ALL
    SELECT w.cand_id, CASE WHEN c.redirect_target IS NULL THEN 3 ELSE 1 END, NULL, NULL, NULL, NULL, NULL, NULL,
           CASE WHEN c.redirect_target IS NULL THEN 3 ELSE 1 END
    FROM walk w JOIN caps c ON c.crawl IS NOT DISTINCT FROM w.crawl AND c.url = w.url
    WHERE c.outcome = 'redirect' AND (c.redirect_target IS NULL OR w.step = 5)
    UNION ALL
    SELECT w.cand_id, 3, NULL, NULL, NULL, NULL, NULL, NULL, 2
    FROM walk w
    WHERE NOT EXISTS (SELECT 1 FROM caps c WHERE c.crawl IS NOT DISTINCT FROM w.crawl AND c.url = w.url)
),
resolved AS (
    SELECT * FROM (
        SELECT *, row_number() OVER (PARTITION BY cand_id
            ORDER BY cls, ans_id IS NULL, hops, ans_fetch DESC NULLS LAST, ans_id, reason) AS k
        FROM ends)
    WHERE k = 1
),
ranked AS (
    SELECT c.crawl, c.host, c.registered_domain, c.url, c.http_status, c.status_class, c.rank, r.*,
           count(*) OVER (PARTITION BY c.crawl, c.host) AS candidates,
           row_number() OVER (PARTITION BY c.crawl, c.host
               ORDER BY r.cls, c.scheme = 'https' DESC, c.fetch_time DESC NULLS LAST, c.capture_id) AS pick
    FROM cand c JOIN resolved r ON r.cand_id = c.capture_id
)
SELECT crawl, (SELECT crawl_date FROM dates d WHERE d.crawl IS NOT DISTINCT FROM ranked.crawl) AS crawl_date,
       host, registered_domain,
       ans_id AS capture_id, url, ans_url AS final_url,
       CAST(hops AS INTEGER) AS redirect_hops,
       CASE cls WHEN 0 THEN 'parsed' WHEN 1 THEN 'unavailable' WHEN 2 THEN 'unreachable' ELSE 'unresolved' END AS outcome,
       CASE WHEN ans_id IS NULL THEN http_status ELSE ans_status END AS http_status,
       CASE WHEN ans_id IS NULL THEN status_class ELSE ans_class END AS status_class,
       CASE reason WHEN 1 THEN 'redirect-limit' WHEN 2 THEN 'not-captured' WHEN 3 THEN 'no-location' END AS reason,
       CAST(candidates AS INTEGER) AS candidates,
       rank
FROM ranked
WHERE pick = 1
