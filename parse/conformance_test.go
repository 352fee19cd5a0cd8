package parse

import (
	"bytes"
	"os"
	"regexp"
	"strings"
	"testing"
)

// conformance is the table of decisions robotstat must get right. Each case is
// named after the RFC 9309 section it checks (RFC9309_2_2_2_...), the Google
// leniency it accepts (Google_...), the place we deliberately differ from
// Google's reference parser (Deviation_..., see doc.go), or the kind of
// non-robots content it feeds (Content_...).
var conformance = []struct {
	name   string
	robots string
	agent  string
	url    string
	want   bool // allowed
}{
	// §2.1, §2.2.1: groups.
	{"RFC9309_2_2_1_stacked_user_agents_share_group_second", "User-agent: a\nUser-agent: b\nDisallow: /\n", "b", "/x", false},
	{"RFC9309_2_2_1_stacked_user_agents_share_group_first", "User-agent: a\nUser-agent: b\nDisallow: /\n", "a", "/x", false},
	{"RFC9309_2_2_1_stacked_user_agents_other_agent", "User-agent: a\nUser-agent: b\nDisallow: /\n", "c", "/x", true},
	{"RFC9309_2_2_1_blank_line_between_user_agents", "User-agent: a\n\nUser-agent: b\nDisallow: /\n", "a", "/x", false},
	{"RFC9309_2_2_1_comment_between_user_agents", "User-agent: a\n# b too\nUser-agent: b\nDisallow: /\n", "a", "/x", false},
	{"RFC9309_2_2_4_crawl_delay_between_user_agents_does_not_split", "User-agent: a\nCrawl-delay: 5\nUser-agent: b\nDisallow: /\n", "a", "/x", false},
	{"Deviation_other_record_ends_run", "User-agent: bingbot\nCrawl-delay: 30\nUser-agent: x\nDisallow: /\n", "bingbot", "/a", false},
	{"Deviation_invalid_key_html_is_no_rule", "User-agent: *\n<p>Disallow: /x</p>\n", "a", "/x", true},
	{"Deviation_invalid_key_line_keeps_run", "User-agent: a\n<b>note</b>: hi\nUser-agent: b\nDisallow: /\n", "a", "/x", false},
	{"Deviation_missing_colon_unknown_key_prose", "User-agent: a\nHello there\nUser-agent: b\nDisallow: /\n", "a", "/x", false},
	{"RFC9309_2_2_4_real_bingbot_crawl_delay_shape", "User-Agent: bingbot\nCrawl-delay: 30\n\nUser-agent: Cliqzbot\nDisallow: /\n", "bingbot", "/", false},
	{"RFC9309_2_2_4_content_signal_between_agent_and_rules", "User-Agent: *\nContent-Signal: search=yes,ai-train=no\nAllow: /\n\nUser-agent: GPTBot\nDisallow: /\n", "x", "/a", true},
	{"RFC9309_2_2_4_sitemap_inside_rules_does_not_end_group", "User-agent: a\nDisallow: /x\nSitemap: https://e.com/s.xml\nDisallow: /y\n", "a", "/y", false},
	{"RFC9309_2_2_4_sitemap_between_user_agents_does_not_split", "User-agent: a\nSitemap: https://e.com/s.xml\nUser-agent: b\nDisallow: /\n", "a", "/x", false},
	{"RFC9309_2_2_4_unknown_key_between_user_agents_does_not_split", "User-agent: a\nNoindex: /y\nUser-agent: b\nDisallow: /\n", "a", "/x", false},
	{"RFC9309_2_2_1_rule_ends_group", "User-agent: a\nDisallow: /x\nUser-agent: b\nDisallow: /y\n", "a", "/y", true},
	{"RFC9309_2_2_1_rule_ends_group_other_side", "User-agent: a\nDisallow: /x\nUser-agent: b\nDisallow: /y\n", "b", "/x", true},
	{"RFC9309_2_2_1_allow_ends_group", "User-agent: a\nAllow: /x\nUser-agent: b\nDisallow: /\n", "a", "/y", true},
	{"RFC9309_2_2_1_merge_split_groups_later_rule", "User-agent: a\nDisallow: /x\nUser-agent: b\nDisallow: /y\nUser-agent: a\nDisallow: /z\n", "a", "/z", false},
	{"RFC9309_2_2_1_merge_split_groups_earlier_rule", "User-agent: a\nDisallow: /x\nUser-agent: b\nDisallow: /y\nUser-agent: a\nDisallow: /z\n", "a", "/x", false},
	{"RFC9309_2_2_1_merge_split_groups_not_other", "User-agent: a\nDisallow: /x\nUser-agent: b\nDisallow: /y\nUser-agent: a\nDisallow: /z\n", "a", "/y", true},
	{"RFC9309_2_2_1_merge_longest_across_groups", "User-agent: a\nDisallow: /p\nUser-agent: b\nAllow: /\nUser-agent: a\nAllow: /p/q\n", "a", "/p/q", true},
	{"RFC9309_2_2_1_merge_longest_across_groups_disallow", "User-agent: a\nDisallow: /p\nUser-agent: b\nAllow: /\nUser-agent: a\nAllow: /p/q\n", "a", "/p/x", false},
	{"RFC9309_2_2_1_merge_stacked_and_single", "User-agent: a\nUser-agent: b\nDisallow: /s\nUser-agent: a\nDisallow: /t\n", "b", "/t", true},
	{"RFC9309_2_2_1_merge_stacked_and_single_named", "User-agent: a\nUser-agent: b\nDisallow: /s\nUser-agent: a\nDisallow: /t\n", "a", "/s", false},
	{"RFC9309_2_2_1_named_group_replaces_star", "User-agent: *\nDisallow: /\nUser-agent: a\nDisallow: /x\n", "a", "/y", true},
	{"RFC9309_2_2_1_named_group_own_rules", "User-agent: *\nDisallow: /\nUser-agent: a\nDisallow: /x\n", "a", "/x", false},
	{"RFC9309_2_2_1_star_fallback", "User-agent: *\nDisallow: /\nUser-agent: a\nDisallow: /x\n", "b", "/y", false},
	{"RFC9309_2_2_1_multiple_star_groups_merged", "User-agent: *\nDisallow: /a\nUser-agent: x\nDisallow: /\nUser-agent: *\nDisallow: /b\n", "y", "/b", false},
	{"RFC9309_2_2_1_multiple_star_groups_merged_first", "User-agent: *\nDisallow: /a\nUser-agent: x\nDisallow: /\nUser-agent: *\nDisallow: /b\n", "y", "/a", false},
	{"RFC9309_2_2_1_no_matching_group_no_star", "User-agent: a\nDisallow: /\n", "b", "/x", true},
	{"RFC9309_2_2_1_star_and_name_in_one_group_named", "User-agent: *\nUser-agent: a\nDisallow: /\n", "a", "/x", false},
	{"RFC9309_2_2_1_star_and_name_in_one_group_star", "User-agent: *\nUser-agent: a\nDisallow: /\n", "b", "/x", false},
	{"RFC9309_2_2_1_case_insensitive_token_in_file", "User-agent: GPTBOT\nDisallow: /\n", "gptbot", "/x", false},
	{"RFC9309_2_2_1_case_insensitive_token_asked", "User-agent: gptbot\nDisallow: /\n", "GPTBot", "/x", false},
	{"RFC9309_2_2_case_insensitive_keys", "USER-AGENT: a\nDISALLOW: /\n", "a", "/x", false},
	{"RFC9309_2_2_case_insensitive_keys_mixed", "uSeR-aGeNt: a\ndIsAlLoW: /\n", "a", "/x", false},
	{"RFC9309_2_2_1_token_is_not_substring", "User-agent: Googlebot\nDisallow: /\n", "Googlebot-Image", "/x", true},
	{"RFC9309_2_2_1_token_is_not_prefix_of_agent", "User-agent: Google\nDisallow: /\n", "Googlebot", "/x", true},
	{"RFC9309_2_2_1_hyphenated_token", "User-agent: Google-Extended\nDisallow: /\n", "Google-Extended", "/x", false},
	{"RFC9309_2_2_1_hyphenated_token_not_base", "User-agent: Google-Extended\nDisallow: /\n", "Googlebot", "/x", true},
	{"RFC9309_2_2_1_underscore_token", "User-agent: my_bot\nDisallow: /\n", "My_Bot", "/x", false},
	{"Google_token_prefix_version_in_file", "User-agent: GPTBot/1.1\nDisallow: /\n", "GPTBot", "/x", false},
	{"Google_token_prefix_full_user_agent_in_file", "User-agent: Mozilla/5.0 (compatible; GPTBot/1.1)\nDisallow: /\n", "GPTBot", "/x", true},
	{"Google_token_prefix_full_user_agent_names_first_token", "User-agent: Mozilla/5.0 (compatible; GPTBot/1.1)\nDisallow: /\n", "Mozilla", "/x", false},
	{"Deviation_agent_token_prefix_version", "User-agent: GPTBot\nDisallow: /\n", "GPTBot/1.1", "/x", false},
	// Lookup reads a whole header by its first token; explain.ReadAgent
	// (check, the tester) would find a catalog bot in it, so the case names
	// none, and the tester's answers match this table.
	{"Deviation_agent_token_prefix_full_header", "User-agent: FooBot\nDisallow: /\n", "Mozilla/5.0 (compatible; FooBot/1.1)", "/x", true},
	{"Deviation_agent_token_prefix_full_header_first_token", "User-agent: Mozilla\nDisallow: /\n", "Mozilla/5.0 (compatible; FooBot/1.1)", "/x", false},
	{"Deviation_agent_token_prefix_digits_version", "User-agent: MJ12bot\nDisallow: /\n", "MJ12bot/v1.4.8", "/x", false},
	{"Deviation_agent_token_prefix_non_ascii_version", "User-agent: Львів-bot\nDisallow: /\n", "Львів-bot/1.1", "/x", false},

	// Product tokens with digits and non-ASCII letters are tokens of their
	// own (Deviation_token_digits, Deviation_token_non_ascii in doc.go):
	// protego and crawler-commons compare the whole value, Google cuts it.
	{"Deviation_token_digits_crawler3_is_not_crawler1", "User-agent: crawler1\nDisallow: /index.html\n\nUser-agent: *\nDisallow:\n", "crawler3", "/index.html", true},
	{"Deviation_token_digits_crawler1_own_group", "User-agent: crawler1\nDisallow: /index.html\n\nUser-agent: *\nDisallow:\n", "crawler1", "/index.html", false},
	{"Deviation_token_digits_crawler1_does_not_name_crawler", "User-agent: crawler1\nDisallow: /index.html\n\nUser-agent: *\nDisallow:\n", "crawler", "/index.html", true},
	{"Deviation_token_digits_Bot3_is_not_Bot2", "User-agent: Bot2\nDisallow: /\n", "Bot3", "/x", true},
	{"Deviation_token_digits_Bot2_does_not_name_Bot", "User-agent: Bot2\nDisallow: /\n", "Bot", "/x", true},
	{"Deviation_token_digits_Bot2_own_group", "User-agent: Bot2\nDisallow: /\n", "bot2", "/x", false},
	{"RFC9309_2_2_1_token_Bot2_does_not_name_Botx", "User-agent: Bot2\nDisallow: /\n", "Botx", "/x", true},
	{"Deviation_token_digits_Rule1TestBot_own_rules", gym2008, "Rule1TestBot", "/food/xyz.html", false},
	{"Deviation_token_digits_Rule2TestBot_is_not_Rule1TestBot", gym2008, "Rule2TestBot", "/food/xyz.html", true},
	{"Deviation_token_digits_Rule2TestBot_own_rules", gym2008, "Rule2TestBot", "/foo/a/b/c/x/y/z/bar.html", false},
	{"Deviation_token_digits_Rule3TestBot_is_not_Rule1TestBot", gym2008, "Rule3TestBot", "/foo", true},
	{"Deviation_token_digits_Rule3TestBot_own_rules", gym2008, "Rule3TestBot", "/moo", false},
	{"Deviation_token_digits_Rule4TestBot_own_allow", gym2008, "Rule4TestBot", "/foo/bar.html", true},
	{"Deviation_token_digits_Agent3_is_not_Agent1", agents1to5, "Agent3", "/1", true},
	{"Deviation_token_digits_Agent3_own_group", agents1to5, "Agent3", "/3", false},
	{"Deviation_token_digits_Agent5_is_not_Agent4", agents1to5, "AGENT5", "/4", true},
	{"Deviation_token_digits_Agent_names_no_group", agents1to5, "Agent", "/1", true},
	{"Deviation_token_digits_MJ12bot_own_group", "User-agent: MJ12bot\nDisallow: /\n\nUser-agent: *\nDisallow:\n", "MJ12bot", "/x", false},
	{"Deviation_token_digits_MJ12bot_does_not_name_MJ", "User-agent: MJ12bot\nDisallow: /\n\nUser-agent: *\nDisallow:\n", "MJ", "/x", true},
	{"Deviation_token_digits_MJ12bot_version_in_file", "User-agent: MJ12bot/v1.4.8\nDisallow: /\n", "mj12bot", "/x", false},
	{"Deviation_token_digits_360Spider_own_group", "User-agent: 360Spider\nDisallow: /\n", "360Spider", "/x", false},
	{"Deviation_token_digits_360Spider_does_not_name_Spider", "User-agent: 360Spider\nDisallow: /\n", "Spider", "/x", true},
	{"Deviation_token_digits_1bot_own_group_allow", rfc1996Bots, "1bot", "/tmp", true},
	{"Deviation_token_digits_1bot_own_group_disallow", rfc1996Bots, "1bot", "/x", false},
	{"Deviation_token_digits_2bot_is_not_1bot", rfc1996Bots, "2bot", "/tmp", false},
	{"Deviation_token_digits_AI2Bot_own_group", ai2Bots, "AI2Bot", "/x", false},
	{"Deviation_token_digits_Ai2Bot_Dolma_is_not_AI2Bot", ai2Bots, "Ai2Bot-Dolma", "/x", true},
	{"Deviation_token_digits_Ai2Bot_Dolma_own_group", ai2Bots, "Ai2Bot-Dolma", "/private/x", false},
	{"Deviation_token_digits_img2dataset_own_group", "User-agent: img2dataset\nDisallow: /\n\nUser-agent: img\nAllow: /\n", "img2dataset", "/x", false},
	{"Deviation_token_digits_img_is_not_img2dataset", "User-agent: img2dataset\nDisallow: /\n\nUser-agent: *\nAllow: /\n", "img", "/x", true},
	{"Deviation_token_non_ascii_jaevla_fanbot_is_not_jaevla_foobot", "User-Agent: Jävla-Foobot\nDisallow: /\n", "jävla-fanbot", "/foo/bar.html", true},
	{"Deviation_token_non_ascii_jaevla_foobot_own_group", "User-Agent: Jävla-Foobot\nDisallow: /\n", "jävla-foobot", "/foo/bar.html", false},
	{"Deviation_token_non_ascii_case_insensitive", "User-Agent: Jävla-Foobot\nDisallow: /\n", "JÄVLA-FOOBOT", "/x", false},
	{"Deviation_token_non_ascii_foobot_is_not_jaevla_foobot", "User-Agent: Jävla-Foobot\nDisallow: /\n", "foobot", "/", true},
	{"Deviation_token_non_ascii_j_is_not_jaevla_foobot", "User-Agent: Jävla-Foobot\nDisallow: /\n", "J", "/", true},
	{"Deviation_token_non_ascii_decomposed_letter", "User-Agent: Ja\u0308vla-bot\nDisallow: /\n", "ja\u0308vla-bot", "/x", false},
	{"Deviation_token_non_ascii_unicoede_boet_own_group", "User-Agent: *\nDisallow: /admin/\nUser-Agent: UnicödeBöt\nDisallow: /some/randome/page.html\n", "UnicödeBöt", "/admin/", true},
	{"Deviation_token_non_ascii_unicoede_boet_own_rule", "User-Agent: *\nDisallow: /admin/\nUser-Agent: UnicödeBöt\nDisallow: /some/randome/page.html\n", "unicödeböt", "/some/randome/page.html", false},
	{"Deviation_token_non_ascii_cyrillic", "User-Agent: Львів-bot\nDisallow: /totalitarianism/\n", "ЛЬВІВ-BOT", "/totalitarianism/foo.htm", false},
	{"Deviation_token_non_ascii_nbsp_ends_token", "User-agent: GPTBot\u00a0\nDisallow: /\n", "GPTBot", "/x", false},
	{"Deviation_token_non_ascii_symbol_ends_token", "User-agent: GPTBot™\nDisallow: /\n", "GPTBot", "/x", false},
	{"Deviation_token_non_ascii_latin1_octet_ends_token", "User-agent: J\xe4vla\nDisallow: /\n", "J", "/x", false},
	{"Deviation_token_non_ascii_latin1_not_utf8_name", "User-agent: J\xe4vla\nDisallow: /\n", "Jävla", "/x", true},
	{"Google_token_prefix_trailing_star", "User-agent: Googlebot*\nDisallow: /\n", "Googlebot", "/x", false},
	{"Google_token_prefix_value_with_trailing_words", "User-agent: GPTBot is not welcome\nDisallow: /\n", "GPTBot", "/x", false},
	{"Google_star_prefix_star_with_comment", "User-agent: * # everyone\nDisallow: /\n", "a", "/x", false},
	{"Google_star_prefix_star_with_words", "User-agent: * all of you\nDisallow: /\n", "a", "/x", false},
	{"Google_star_prefix_glued_star_is_not_wildcard", "User-agent: *bot\nDisallow: /\n", "a", "/x", true},
	{"RFC9309_2_2_1_empty_user_agent_names_nobody", "User-agent:\nDisallow: /\n", "a", "/x", true},
	{"RFC9309_2_2_1_rules_before_first_user_agent_ignored", "Disallow: /\nUser-agent: *\nAllow: /x\n", "a", "/y", true},
	{"RFC9309_2_2_1_rules_without_any_group_ignored", "Disallow: /\n", "a", "/x", true},
	{"RFC9309_2_1_trailing_group_without_rules_allows", "User-agent: a\n", "a", "/x", true},
	{"RFC9309_2_1_group_without_rules_does_not_fall_back_to_star", "User-agent: *\nDisallow: /\nUser-agent: a\n", "a", "/x", true},

	// §2.2.2: allow and disallow, longest match.
	{"RFC9309_2_2_2_longest_match_allow", "User-agent: *\nDisallow: /a\nAllow: /a/b\n", "x", "/a/b/c", true},
	{"RFC9309_2_2_2_longest_match_disallow", "User-agent: *\nAllow: /a\nDisallow: /a/b\n", "x", "/a/b", false},
	{"RFC9309_2_2_2_longest_match_order_independent", "User-agent: *\nAllow: /a/b\nDisallow: /a\n", "x", "/a/b/c", true},
	{"RFC9309_2_2_2_longest_match_shorter_applies_elsewhere", "User-agent: *\nDisallow: /a\nAllow: /a/b\n", "x", "/a/c", false},
	{"RFC9309_2_2_2_tie_allow_wins", "User-agent: *\nDisallow: /a\nAllow: /a\n", "x", "/a", true},
	{"RFC9309_2_2_2_tie_allow_wins_reversed", "User-agent: *\nAllow: /a\nDisallow: /a\n", "x", "/a", true},
	{"RFC9309_2_2_2_tie_allow_wins_wildcards", "User-agent: *\nDisallow: /*.x\nAllow: /a.x\n", "x", "/a.x", true},
	{"RFC9309_2_2_2_length_counts_wildcard_octets", "User-agent: *\nAllow: /p\nDisallow: /*p\n", "x", "/p", false},
	{"RFC9309_2_2_2_allow_root_dollar_over_disallow_root", "User-agent: *\nAllow: /$\nDisallow: /\n", "x", "/", true},
	{"RFC9309_2_2_2_allow_root_dollar_other_path", "User-agent: *\nAllow: /$\nDisallow: /\n", "x", "/page.htm", false},
	{"RFC9309_2_2_2_allow_p_over_disallow_root", "User-agent: *\nAllow: /p\nDisallow: /\n", "x", "/page", true},
	{"RFC9309_2_2_2_allow_folder_tie", "User-agent: *\nAllow: /folder\nDisallow: /folder\n", "x", "/folder/page", true},
	{"RFC9309_2_2_2_longer_wildcard_disallow", "User-agent: *\nAllow: /page\nDisallow: /*.htm\n", "x", "/page.htm", false},
	{"RFC9309_2_2_2_longer_allow_over_wildcard", "User-agent: *\nDisallow: /*.php\nAllow: /index.php\n", "x", "/index.php", true},
	{"RFC9309_2_2_2_prefix_match", "User-agent: *\nDisallow: /fish\n", "x", "/fish.html", false},
	{"RFC9309_2_2_2_prefix_match_longer_word", "User-agent: *\nDisallow: /fish\n", "x", "/fishheads/yummy.html", false},
	{"RFC9309_2_2_2_prefix_match_query", "User-agent: *\nDisallow: /fish\n", "x", "/fish.php?id=anything", false},
	{"RFC9309_2_2_2_case_sensitive_path", "User-agent: *\nDisallow: /fish\n", "x", "/Fish.asp", true},
	{"RFC9309_2_2_2_not_prefix", "User-agent: *\nDisallow: /fish\n", "x", "/catfish", true},
	{"RFC9309_2_2_2_trailing_slash_is_literal", "User-agent: *\nDisallow: /fish/\n", "x", "/fish", true},
	{"RFC9309_2_2_2_trailing_slash_matches_below", "User-agent: *\nDisallow: /fish/\n", "x", "/fish/salmon.htm", false},
	{"RFC9309_2_2_2_empty_disallow_allows_all", "User-agent: *\nDisallow:\n", "x", "/x", true},
	{"RFC9309_2_2_2_empty_disallow_with_spaces", "User-agent: *\nDisallow:    \n", "x", "/x", true},
	{"RFC9309_2_2_2_empty_allow_is_ignored", "User-agent: *\nDisallow: /\nAllow:\n", "x", "/x", false},
	{"RFC9309_2_2_2_disallow_root", "User-agent: *\nDisallow: /\n", "x", "/", false},
	{"RFC9309_2_2_2_disallow_root_deep", "User-agent: *\nDisallow: /\n", "x", "/a/b/c?d=e", false},
	{"RFC9309_2_2_2_allow_root_ties_disallow_root", "User-agent: *\nDisallow: /\nAllow: /\n", "x", "/x", true},
	{"RFC9309_2_2_2_query_is_part_of_path", "User-agent: *\nDisallow: /*?\n", "x", "/a?b", false},
	{"RFC9309_2_2_2_no_query_not_matched", "User-agent: *\nDisallow: /*?\n", "x", "/a", true},
	{"RFC9309_2_2_2_query_literal", "User-agent: *\nDisallow: /search?q=\n", "x", "/search?q=robots", false},
	{"RFC9309_2_2_2_fragment_dropped", "User-agent: *\nDisallow: /a$\n", "x", "/a#section", false},
	{"RFC9309_2_2_2_absolute_url", "User-agent: *\nDisallow: /private\n", "x", "https://example.com/private/x", false},
	{"RFC9309_2_2_2_absolute_url_with_port", "User-agent: *\nDisallow: /private\n", "x", "http://example.com:8080/private", false},
	{"RFC9309_2_2_2_absolute_url_without_path_is_root", "User-agent: *\nDisallow: /$\n", "x", "https://example.com", false},
	{"RFC9309_2_2_2_absolute_url_query_without_path", "User-agent: *\nDisallow: /?\n", "x", "https://example.com?x=1", false},
	{"RFC9309_2_2_2_scheme_relative_url", "User-agent: *\nDisallow: /a\n", "x", "//example.com/a", false},
	{"Deviation_schemeless_url_is_a_path", "User-agent: *\nDisallow: /a\n", "x", "example.com/a", true},
	{"Deviation_schemeless_url_is_a_path_resolved", "User-agent: *\nDisallow: /example.com/a\n", "x", "example.com/a", false},
	{"Deviation_schemeless_url_is_a_path_xyz_foo_js", "User-agent: *\nDisallow: /xyz/\n", "x", "xyz/foo.js", false},
	{"Deviation_schemeless_url_is_a_path_not_host", "User-agent: *\nDisallow: /foo.js\n", "x", "xyz/foo.js", true},
	{"RFC9309_2_2_2_other_scheme_ftp", "User-agent: *\nDisallow: /foo.html\n", "x", "ftp://example.net/foo.html", false},
	{"RFC9309_2_2_2_empty_url_is_root", "User-agent: *\nDisallow: /$\n", "x", "", false},
	{"RFC9309_2_2_2_malformed_escape_bare_path", "User-agent: *\nDisallow: /100%\n", "x", "/100%", false},
	{"RFC9309_2_2_2_malformed_escape_absolute", "User-agent: *\nDisallow: /100%\n", "x", "https://www.example.org/100%", false},
	{"RFC9309_2_2_2_malformed_escape_x_zz", "User-agent: *\nDisallow: /x%zz\n", "x", "https://www.example.org/x%zz", false},
	{"RFC9309_2_2_2_malformed_escape_a_a", "User-agent: *\nDisallow: /%a%a\n", "x", "http://www.example.com/%a%a", false},
	{"RFC9309_2_2_2_malformed_escape_after_good", "User-agent: *\nDisallow: /%E2%9C%BF%atest\n", "x", "http://example.com/%E2%9C%BF%atest", false},
	{"RFC9309_2_2_2_malformed_escape_not_other_path", "User-agent: *\nDisallow: /100%\n", "x", "https://www.example.org/100", true},
	{"RFC9309_2_2_2_authority_not_matched", "User-agent: *\nDisallow: /example\n", "x", "https://example.com/", true},
	{"Deviation_robots_txt_implicit", "User-agent: *\nDisallow: /\n", "x", "/robots.txt", true},
	{"Deviation_robots_txt_implicit_absolute", "User-agent: *\nDisallow: /\n", "x", "https://example.com/robots.txt", true},
	{"Deviation_robots_txt_implicit_not_with_query", "User-agent: *\nDisallow: /\n", "x", "/robots.txt?x", false},
	{"Deviation_robots_txt_implicit_not_other_directory", "User-agent: *\nDisallow: /\n", "x", "/a/robots.txt", false},
	{"Google_pattern_leading_star", "User-agent: *\nDisallow: *.pdf\n", "x", "/a/b.pdf", false},
	{"Google_pattern_without_slash_never_matches", "User-agent: *\nDisallow: private\n", "x", "/private", true},

	// §2.2.2: percent-encoding.
	{"RFC9309_2_2_2_raw_utf8_pattern_encoded_path", "User-agent: *\nDisallow: /foo/bar/ツ\n", "x", "/foo/bar/%E3%83%84", false},
	{"Deviation_raw_utf8_path", "User-agent: *\nDisallow: /foo/bar/%E3%83%84\n", "x", "/foo/bar/ツ", false},
	{"RFC9309_2_2_2_raw_utf8_both", "User-agent: *\nDisallow: /foo/bar/ツ\n", "x", "/foo/bar/ツ", false},
	{"RFC9309_2_2_2_lowercase_hex_in_pattern", "User-agent: *\nDisallow: /foo/%e3%83%84\n", "x", "/foo/%E3%83%84", false},
	{"RFC9309_2_2_2_lowercase_hex_in_path", "User-agent: *\nDisallow: /foo/%E3%83%84\n", "x", "/foo/%e3%83%84", false},
	{"Deviation_percent_case_in_url", "User-agent: *\nDisallow: /a%2fb\n", "x", "/a%2fb", false},
	{"Deviation_percent_encoding_space_in_url", "User-agent: *\nDisallow: /a b\n", "x", "/a%20b", false},
	{"Deviation_percent_decoding_unreserved_in_pattern", "User-agent: *\nDisallow: /foo/bar/%62%61%7A\n", "x", "/foo/bar/baz", false},
	{"RFC9309_2_2_2_encoded_unreserved_in_path", "User-agent: *\nDisallow: /foo/bar/baz\n", "x", "/foo/bar/%62%61%7A", false},
	{"RFC9309_2_2_2_encoded_tilde", "User-agent: *\nDisallow: /~user\n", "x", "/%7Euser/page", false},
	{"RFC9309_2_2_2_encoded_hyphen_dot_underscore", "User-agent: *\nDisallow: /a-b.c_d\n", "x", "/a%2Db%2Ec%5Fd", false},
	{"RFC9309_2_2_2_encoded_slash_not_decoded", "User-agent: *\nDisallow: /a/b\n", "x", "/a%2Fb", true},
	{"RFC9309_2_2_2_encoded_slash_in_pattern", "User-agent: *\nDisallow: /a%2fb\n", "x", "/a%2Fb", false},
	{"RFC9309_2_2_2_encoded_question_mark_not_query", "User-agent: *\nDisallow: /a?b\n", "x", "/a%3Fb", true},
	{"RFC9309_2_2_2_space_in_pattern_encoded", "User-agent: *\nDisallow: /a b\n", "x", "/a%20b", false},
	{"RFC9309_2_2_2_space_in_path_encoded", "User-agent: *\nDisallow: /a%20b\n", "x", "/a b", false},
	{"RFC9309_2_2_2_latin1_byte_in_pattern", "User-agent: *\nDisallow: /caf\xe9\n", "x", "/caf%E9", false},
	{"RFC9309_2_2_2_invalid_escape_kept", "User-agent: *\nDisallow: /a%zz\n", "x", "/a%zz", false},
	{"RFC9309_2_2_2_invalid_escape_not_percent_25", "User-agent: *\nDisallow: /a%zz\n", "x", "/a%25zz", true},
	{"RFC9309_2_2_2_trailing_percent", "User-agent: *\nDisallow: /a%\n", "x", "/a%", false},
	{"RFC9309_2_2_2_pipe_encoded_both_ways", "User-agent: *\nDisallow: /a|b\n", "x", "/a%7Cb", false},
	{"RFC9309_2_2_3_percent_2A_matches_literal_star", "User-agent: *\nDisallow: /path/file-with-a-%2A.html\n", "x", "https://www.example.com/path/file-with-a-*.html", false},
	{"RFC9309_2_2_3_percent_24_matches_literal_dollar", "User-agent: *\nDisallow: /path/foo-%24\n", "x", "https://www.example.com/path/foo-$", false},
	{"RFC9309_2_2_3_percent_2A_is_not_a_wildcard", "User-agent: *\nDisallow: /a%2Ab\n", "x", "/axxb", true},
	{"RFC9309_2_2_3_percent_24_is_not_an_anchor", "User-agent: *\nDisallow: /a%24\n", "x", "/a", true},
	{"RFC9309_2_2_3_literal_star_in_path_matches_wildcard", "User-agent: *\nDisallow: /a*b\n", "x", "/a*b", false},

	// §2.2.3: special characters.
	{"RFC9309_2_2_3_star_matches_any", "User-agent: *\nDisallow: /*.pdf\n", "x", "/a/b/c.pdf", false},
	{"RFC9309_2_2_3_star_matches_empty", "User-agent: *\nDisallow: /a*b\n", "x", "/ab", false},
	{"RFC9309_2_2_3_star_then_prefix", "User-agent: *\nDisallow: /*.pdf\n", "x", "/a.pdf.html", false},
	{"RFC9309_2_2_3_dollar_anchor", "User-agent: *\nDisallow: /*.pdf$\n", "x", "/a.pdf", false},
	{"RFC9309_2_2_3_dollar_anchor_rejects_longer", "User-agent: *\nDisallow: /*.pdf$\n", "x", "/a.pdf?x=1", true},
	{"RFC9309_2_2_3_dollar_root_only", "User-agent: *\nDisallow: /$\n", "x", "/", false},
	{"RFC9309_2_2_3_dollar_root_only_other", "User-agent: *\nDisallow: /$\n", "x", "/a", true},
	{"RFC9309_2_2_3_dollar_mid_pattern_literal", "User-agent: *\nDisallow: /a$b\n", "x", "/a$b", false},
	{"RFC9309_2_2_3_dollar_mid_pattern_not_anchor", "User-agent: *\nDisallow: /a$b\n", "x", "/a", true},
	{"RFC9309_2_2_3_dollar_mid_pattern_prefix", "User-agent: *\nDisallow: /a$b\n", "x", "/a$bc", false},
	{"RFC9309_2_2_3_dollar_mid_pattern_encoded_path", "User-agent: *\nDisallow: /a$b\n", "x", "/a%24b", false},
	{"RFC9309_2_2_3_double_dollar", "User-agent: *\nDisallow: /a$$\n", "x", "/a$", false},
	{"RFC9309_2_2_3_double_dollar_anchored", "User-agent: *\nDisallow: /a$$\n", "x", "/a$x", true},
	{"RFC9309_2_2_3_run_of_stars", "User-agent: *\nDisallow: /a**b\n", "x", "/axxb", false},
	{"RFC9309_2_2_3_run_of_stars_no_match", "User-agent: *\nDisallow: /a***b\n", "x", "/axx", true},
	{"RFC9309_2_2_3_only_star", "User-agent: *\nDisallow: *\n", "x", "/", false},
	{"RFC9309_2_2_3_slash_star", "User-agent: *\nDisallow: /*\n", "x", "/anything", false},
	{"RFC9309_2_2_3_trailing_star_is_prefix", "User-agent: *\nDisallow: /a*\n", "x", "/abc", false},
	{"RFC9309_2_2_3_star_dollar_matches_all", "User-agent: *\nDisallow: /*$\n", "x", "/x/y", false},
	{"RFC9309_2_2_3_anchored_suffix_after_star", "User-agent: *\nDisallow: /*/x$\n", "x", "/a/b/x", false},
	{"RFC9309_2_2_3_anchored_suffix_after_star_rejects", "User-agent: *\nDisallow: /*/x$\n", "x", "/a/x/y", true},
	{"RFC9309_2_2_3_anchored_suffix_overlap", "User-agent: *\nDisallow: /*ab*ab$\n", "x", "/ab", true},
	{"RFC9309_2_2_3_anchored_suffix_overlap_ok", "User-agent: *\nDisallow: /*ab*ab$\n", "x", "/abab", false},
	{"RFC9309_2_2_3_middle_segments_in_order", "User-agent: *\nDisallow: /*b*a\n", "x", "/ab", true},
	{"RFC9309_2_2_3_comment_after_value", "User-agent: *\nDisallow: /a # not /b\n", "x", "/b", true},
	{"RFC9309_2_2_3_comment_without_space", "User-agent: *\nDisallow: /a#b\n", "x", "/a", false},
	{"RFC9309_2_2_3_comment_whole_line", "User-agent: *\n# Disallow: /\n", "x", "/a", true},
	{"RFC9309_2_2_3_adversarial_stars_no_match", "User-agent: *\nDisallow: /*a*a*a*a*a*b\n", "x", "/" + strings.Repeat("a", 100000), true},
	{"RFC9309_2_2_3_adversarial_stars_match", "User-agent: *\nDisallow: /*a*a*a*a*a*b\n", "x", "/" + strings.Repeat("a", 100000) + "b", false},
	{"RFC9309_2_2_3_adversarial_anchored", "User-agent: *\nDisallow: /*a*a*a*a*a*ab$\n", "x", "/" + strings.Repeat("a", 100000) + "c", true},

	// §2.2: lines, white space, encodings.
	{"RFC9309_2_2_EOL_crlf", "User-agent: *\r\nDisallow: /a\r\n", "x", "/a", false},
	{"RFC9309_2_2_EOL_cr_only", "User-agent: *\rDisallow: /a\rAllow: /a/b\r", "x", "/a/c", false},
	{"RFC9309_2_2_EOL_cr_only_allow", "User-agent: *\rDisallow: /a\rAllow: /a/b\r", "x", "/a/b", true},
	{"RFC9309_2_2_EOL_mixed", "User-agent: a\rDisallow: /x\r\nUser-agent: b\nDisallow: /y\n", "a", "/y", true},
	{"RFC9309_2_2_EOL_crcrlf", "User-agent: *\r\r\nDisallow: /a\r\r\n", "x", "/a", false},
	{"RFC9309_2_2_no_final_newline", "User-agent: *\nDisallow: /a", "x", "/a", false},
	{"Google_bom", "\xEF\xBB\xBFUser-agent: *\nDisallow: /\n", "x", "/a", false},
	{"Google_bom_partial", "\xEF\xBBUser-agent: *\nDisallow: /\n", "x", "/a", false},
	{"RFC9309_2_2_bom_on_later_line_is_content", "User-agent: *\n\xEF\xBB\xBFDisallow: /\n", "x", "/a", true},
	{"RFC9309_2_2_whitespace_around_colon", "User-agent :  *\nDisallow :   /a   \n", "x", "/a", false},
	{"RFC9309_2_2_leading_whitespace", "   User-agent: *\n\tDisallow: /a\n", "x", "/a", false},
	{"RFC9309_2_2_tab_after_colon", "User-agent:\t*\nDisallow:\t/a\n", "x", "/a", false},
	{"RFC9309_2_2_blank_lines_inside_group", "User-agent: *\n\n\nDisallow: /a\n\n", "x", "/a", false},
	{"RFC9309_2_2_comment_only_file", "# nothing here\n# at all\n", "x", "/a", true},
	{"RFC9309_2_2_empty_file", "", "x", "/a", true},
	{"Google_typo_dissallow", "User-agent: *\nDissallow: /a\n", "x", "/a", false},
	{"Google_typo_dissalow", "User-agent: *\nDissalow: /a\n", "x", "/a", false},
	{"Google_typo_disalow", "User-agent: *\nDisalow: /a\n", "x", "/a", false},
	{"Google_typo_diasllow", "User-agent: *\nDiasllow: /a\n", "x", "/a", false},
	{"Google_typo_disallaw", "User-agent: *\nDisallaw: /a\n", "x", "/a", false},
	{"Google_typo_useragent", "Useragent: a\nDisallow: /\n", "a", "/x", false},
	{"Google_typo_user_agent_space", "User agent: a\nDisallow: /\n", "a", "/x", false},
	{"Deviation_key_separator_underscore", "User_agent: a\nDisallow: /\n", "a", "/x", false},
	{"Deviation_key_separator_tab", "User\tagent: a\nDisallow: /\n", "a", "/x", false},
	{"Deviation_key_separator_run_of_spaces", "User  agent: a\nDisallow: /\n", "a", "/x", false},
	{"Google_whitespace_vt_ff", "User-agent: *\nDisallow:\v/a\f\n", "x", "/a", false},
	{"Google_missing_colon_disallow", "User-agent: *\nDisallow /a\n", "x", "/a", false},
	{"Google_missing_colon_user_agent", "User-agent a\nDisallow: /\n", "a", "/x", false},
	{"Google_missing_colon_three_words_rejected", "User-agent: *\nDisallow /a /b\n", "x", "/a", true},
	{"Deviation_key_prefix_disallowed", "User-agent: *\nDisallowed: /a\n", "x", "/a", true},
	{"Deviation_key_prefix_user_agents", "User-agents: a\nDisallow: /\n", "a", "/x", true},
	{"Deviation_index_html", "User-agent: *\nDisallow: /\nAllow: /d/index.html\n", "x", "/d/", false},
	{"RFC9309_2_2_4_unknown_key_ignored", "User-agent: *\nFoo: bar\nDisallow: /a\n", "x", "/a", false},
	{"RFC9309_2_2_4_crawl_delay_inside_group", "User-agent: *\nCrawl-delay: 10\nDisallow: /a\n", "x", "/a", false},
	{"RFC9309_2_2_4_host_ignored", "User-agent: *\nHost: example.com\nDisallow: /a\n", "x", "/a", false},

	// §2.5: limits.
	{"RFC9309_2_5_rules_after_limit_ignored", "User-agent: *\n#" + strings.Repeat("x", DefaultLimit) + "\nDisallow: /\n", "x", "/a", true},
	{"RFC9309_2_5_rules_before_limit_apply", "User-agent: *\nDisallow: /a\n#" + strings.Repeat("x", DefaultLimit) + "\n", "x", "/a", false},
	{"Deviation_limit_cut_line", "User-agent: *\n" + strings.Repeat("#", DefaultLimit-len("User-agent: *\n")-len("Disallow: /a")-1) + "\nDisallow: /abcdef\n", "x", "/a", true},
	{"RFC9309_2_5_line_ending_at_limit_is_whole", "User-agent: *\n" + strings.Repeat("#", DefaultLimit-len("User-agent: *\n")-len("Disallow: /a")-1) + "\nDisallow: /a\n", "x", "/a", false},
	{"Deviation_long_lines", "User-agent: *\nDisallow: /" + strings.Repeat("a", 20000) + "\n", "x", "/" + strings.Repeat("a", 20000), false},
	{"Deviation_long_lines_not_truncated", "User-agent: *\nDisallow: /" + strings.Repeat("a", 20000) + "\n", "x", "/" + strings.Repeat("a", 16000), true},
	{"Deviation_long_lines_cut_pattern_would_match", "User-agent: *\nDisallow: /" + strings.Repeat("a", 20000) + "\n", "x", "/" + strings.Repeat("a", 17000), true},

	// Content that is not a robots.txt (RFC 9309 §2.3.1.5: parse what parses).
	{"Content_html_single_line", "<html><body>User-agent: *<br>Disallow: /</body></html>", "x", "/a", true},
	{"Content_html_lines", "<!DOCTYPE html>\n<html>\n<head><title>404 Not Found</title></head>\n<body><h1>Not Found</h1></body>\n</html>\n", "x", "/a", true},
	{"Content_html_with_robots_lines", "<pre>\nUser-agent: *\nDisallow: /a\n</pre>\n", "x", "/a", false},
	{"Content_json_body", "{\"user-agent\": \"*\", \"disallow\": \"/\"}", "x", "/a", true},
	{"Content_binary_body", "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00", "x", "/a", true},
	{"Content_nul_bytes_only", "\x00\x00\x00\x00", "x", "/a", true},
	{"Content_nul_in_pattern", "User-agent: *\nDisallow: /a\x00b\n", "x", "/a%00b", false},
	{"Content_nul_in_key_line", "User-agent: *\nDis\x00allow: /\n", "x", "/a", true},
	{"Deviation_nul_does_not_end_line", "User-agent: *\nDisallow: /a\x00b\n", "x", "/ax", true},
	{"Deviation_nul_after_star", "User-agent: *\x00\nDisallow: /\n", "x", "/a", true},
	{"Content_utf16_body", "\xff\xfeU\x00s\x00e\x00r\x00", "x", "/a", true},
}

// Files of the token cases: the GYM2008 wildcard file that protego and
// robotexclusionrulesparser test with (Rule1TestBot...Rule4TestBot), five
// numbered agents, the 1996 draft's numbered bots, Ai2's two tokens.
const (
	gym2008 = "User-agent: Rule1TestBot\nDisallow:  /foo*\n\nUser-agent: Rule2TestBot\nDisallow:  /foo*/bar.html\n\n" +
		"# Disallows anything containing the letter m!\nUser-agent: Rule3TestBot\nDisallow:  *m\n\n" +
		"User-agent: Rule4TestBot\nAllow:  /foo/bar.html\nDisallow: *\n"
	agents1to5  = "User-agent: Agent1\nDisallow: /1\n\nUser-agent: Agent2\nDisallow: /2\n\nUser-agent: Agent3\nDisallow: /3\n\nUser-agent: Agent4\nDisallow: /4\n\nUser-agent: Agent5\nDisallow: /5\n"
	rfc1996Bots = "User-agent: 1bot\nAllow: /tmp\nDisallow: /\n\nUser-agent: 2bot\nAllow: /tmp/\nDisallow: /\n"
	ai2Bots     = "User-agent: AI2Bot\nDisallow: /\n\nUser-agent: Ai2Bot-Dolma\nDisallow: /private/\n\nUser-agent: *\nDisallow:\n"
)

func TestConformance(t *testing.T) {
	if len(conformance) < 150 {
		t.Errorf("conformance table has %d cases; keep at least 150", len(conformance))
	}
	seen := map[string]bool{}
	p := NewParser(Options{})
	var r Robots
	for _, c := range conformance {
		if seen[c.name] {
			t.Errorf("duplicate case name %s", c.name)
		}
		seen[c.name] = true
		t.Run(c.name, func(t *testing.T) {
			p.Compile([]byte(c.robots), &r)
			d := r.Decide(c.agent, c.url)
			if d.Allowed != c.want {
				url := c.url
				if len(url) > 80 {
					url = url[:80] + "..."
				}
				t.Errorf("Decide(%q, %q) allowed=%v reason=%v, want allowed=%v", c.agent, url, d.Allowed, d.Reason, c.want)
			}
			// A fresh Robots must agree with the reused one.
			var fresh Robots
			NewParser(Options{}).Compile([]byte(c.robots), &fresh)
			if d2 := fresh.Decide(c.agent, c.url); d2.Allowed != d.Allowed || d2.Reason != d.Reason {
				t.Errorf("reused Robots decided %v/%v, fresh %v/%v", d.Allowed, d.Reason, d2.Allowed, d2.Reason)
			}
		})
	}
}

func TestConformanceThousandsOfGroups(t *testing.T) {
	var b strings.Builder
	for i := range 5000 {
		b.WriteString("User-agent: bot")
		b.WriteString(letters(i))
		b.WriteString("\nDisallow: /")
		b.WriteString(letters(i))
		b.WriteString("/\n\n")
	}
	b.WriteString("User-agent: *\nDisallow: /star/\n")
	var r Robots
	NewParser(Options{}).Compile([]byte(b.String()), &r)
	if got := len(r.Groups()); got != 5001 {
		t.Fatalf("groups = %d, want 5001", got)
	}
	cases := []struct {
		agent, url string
		want       bool
	}{
		{"bot" + letters(4321), "/" + letters(4321) + "/x", false},
		{"bot" + letters(4321), "/" + letters(4322) + "/x", true},
		{"bot" + letters(4321), "/star/x", true},
		{"BOT" + strings.ToUpper(letters(17)), "/" + letters(17) + "/", false},
		{"other", "/star/x", false},
		{"other", "/" + letters(1) + "/", true},
	}
	for _, c := range cases {
		if d := r.Decide(c.agent, c.url); d.Allowed != c.want {
			t.Errorf("Decide(%q, %q) = %v, want %v", c.agent, c.url, d.Allowed, c.want)
		}
	}
}

// letters spells i in base 26 with a-z (product tokens have no digits).
func letters(i int) string {
	s := []byte{}
	for {
		s = append(s, byte('a'+i%26))
		i /= 26
		if i == 0 {
			return string(s)
		}
	}
}

// TestGroupingGoogle checks Deviation_other_record_ends_run and
// Deviation_token_digits under GroupingGoogle: a non-rule record ends a run
// of user-agent lines, as in Google's reference parser (rules after it still
// belong to the group), and a user-agent line names Google's token.
func TestGroupingGoogle(t *testing.T) {
	cases := []struct {
		name, robots, agent, url string
		rfc, google              bool
	}{
		{"crawl_delay_between_agents", "User-agent: a\nCrawl-delay: 5\nUser-agent: b\nDisallow: /\n", "a", "/x", false, true},
		{"sitemap_between_agents", "User-agent: a\nSitemap: s\nUser-agent: b\nDisallow: /\n", "a", "/x", false, true},
		{"second_agent_unaffected", "User-agent: a\nCrawl-delay: 5\nUser-agent: b\nDisallow: /\n", "b", "/x", false, false},
		{"blank_line_still_transparent", "User-agent: a\n\nUser-agent: b\nDisallow: /\n", "a", "/x", false, false},
		{"rules_after_other_record_stay", "User-agent: a\nCrawl-delay: 5\nDisallow: /\n", "a", "/x", false, false},
		{"sitemap_inside_rules", "User-agent: a\nDisallow: /x\nSitemap: s\nDisallow: /y\n", "a", "/y", false, false},
		// Google_token_prefix under GroupingGoogle: a user-agent line names
		// only its letters, "_" and "-", and the agent is compared whole, so
		// a token with digits never finds its own group (google/robotstxt#46).
		{"digit_token_misses_own_group", "User-agent: MJ12bot\nDisallow: /\n", "MJ12bot", "/x", false, true},
		{"digit_token_names_its_prefix", "User-agent: MJ12bot\nDisallow: /\n", "MJ", "/x", true, false},
		{"crawler1_names_crawler", "User-agent: crawler1\nDisallow: /\n", "crawler", "/x", true, false},
		{"crawler3_is_not_crawler1", "User-agent: crawler1\nDisallow: /\n", "crawler3", "/x", true, true},
		{"leading_digit_names_nobody", "User-agent: 360Spider\nDisallow: /\n", "360Spider", "/x", false, true},
		{"non_ascii_names_prefix", "User-Agent: Jävla-Foobot\nDisallow: /\n", "J", "/x", true, false},
		{"non_ascii_misses_own_group", "User-Agent: Jävla-Foobot\nDisallow: /\n", "jävla-foobot", "/x", false, true},
		{"invalid_key_line_does_not_end_run", "User-agent: a\n<b>note</b>: hi\nUser-agent: b\nDisallow: /\n", "a", "/x", false, false},
		{"two_words_unknown_key_does_not_end_run", "User-agent: a\nHello there\nUser-agent: b\nDisallow: /\n", "a", "/x", false, false},
		{"letters_only_token_alike", "User-agent: GPTBot/1.1\nDisallow: /\n", "GPTBot", "/x", false, false},
	}
	rfc, google := NewParser(Options{}), NewParser(Options{Grouping: GroupingGoogle})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var r Robots
			rfc.Compile([]byte(c.robots), &r)
			if got := r.Decide(c.agent, c.url).Allowed; got != c.rfc {
				t.Errorf("GroupingRFC: %v, want %v", got, c.rfc)
			}
			google.Compile([]byte(c.robots), &r)
			if got := r.Decide(c.agent, c.url).Allowed; got != c.google {
				t.Errorf("GroupingGoogle: %v, want %v", got, c.google)
			}
		})
	}
}

// TestDocNamesHaveCases holds doc.go to its promise that every leniency and
// deviation it names has a test named after it.
func TestDocNamesHaveCases(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	var tests []byte
	for _, f := range []string{"conformance_test.go", "status_test.go", "events_test.go"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		tests = append(tests, b...)
	}
	names := regexp.MustCompile(`\b(Deviation|Google)_[a-z0-9_]+[a-z0-9]`).FindAll(doc, -1)
	if len(names) < 20 {
		t.Fatalf("found %d names in doc.go; the pattern is broken", len(names))
	}
	for _, n := range names {
		if !bytes.Contains(tests, append([]byte{'"'}, n...)) {
			t.Errorf("doc.go names %s but no test case is named after it", n)
		}
	}
}
