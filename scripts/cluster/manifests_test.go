package cluster

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// templates maps a template's path (relative to this folder,
// slash-separated) to its bytes. The checks take templates rather than
// reading files so that the tests can hand them mutated copies.
type templates map[string][]byte

// readTemplates reads the named templates from this folder.
func readTemplates(t *testing.T, names ...string) templates {
	t.Helper()
	m := templates{}
	for _, n := range names {
		b, err := os.ReadFile(filepath.FromSlash(n))
		if err != nil {
			t.Fatal(err)
		}
		m[n] = b
	}
	return m
}

// mutation is one edit of a template that its check must reject, with a
// word the error must contain.
type mutation struct {
	name, file, old, new, want string
}

// rejects applies each mutation to a copy of ts and requires check to fail
// with an error naming the problem. An edit that changes nothing (the
// template moved on) fails the test, so that no case passes vacuously.
func rejects(t *testing.T, ts templates, check func(templates) error, cases []mutation) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := templates{}
			for k, v := range ts {
				m[k] = v
			}
			orig, ok := m[c.file]
			if !ok {
				t.Fatalf("no template %s", c.file)
			}
			if !bytes.Contains(orig, []byte(c.old)) {
				t.Fatalf("%s does not contain %q: update the case", c.file, c.old)
			}
			m[c.file] = bytes.Replace(orig, []byte(c.old), []byte(c.new), 1)
			err := check(m)
			if err == nil {
				t.Fatalf("check accepted %s with %q replaced by %q", c.file, c.old, c.new)
			}
			t.Logf("rejected: %v", err)
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error does not mention %q:\n%v", c.want, err)
			}
		})
	}
}

// invocation is a robotstat command line as a template gives it, read
// without knowing every flag: a flag takes the next argument as its value
// unless it is one of boolFlags or written -flag=value.
type invocation struct {
	sub   string            // analyze or sites
	flags map[string]string // by name without dashes
	args  []string          // positional arguments
}

// boolFlags are robotstat's flags that take no value (analyze --help).
var boolFlags = map[string]bool{"quiet": true, "strict": true, "json": true, "429-unreachable": true, "bots-replace": true}

func parseInvocation(argv []string) (invocation, error) {
	var inv invocation
	if len(argv) < 2 || path.Base(argv[0]) != "robotstat" {
		return inv, fmt.Errorf("command %q: want robotstat SUBCOMMAND ...", argv)
	}
	inv.sub, inv.flags = argv[1], map[string]string{}
	for i := 2; i < len(argv); i++ {
		a := argv[i]
		if !strings.HasPrefix(a, "-") || a == "-" {
			inv.args = append(inv.args, a)
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !hasValue && !boolFlags[name] {
			if i+1 == len(argv) {
				return inv, fmt.Errorf("command %q: %s has no value", argv, a)
			}
			i++
			value = argv[i]
		}
		inv.flags[name] = value
	}
	return inv, nil
}

// checkAnalyze checks a shard's command: robotstat analyze --shard auto
// with an absolute --out and at least one input; it returns the --out.
func checkAnalyze(where string, argv []string) (string, error) {
	inv, err := parseInvocation(argv)
	if err != nil {
		return "", fmt.Errorf("%s: %w", where, err)
	}
	var errs []error
	if inv.sub != "analyze" {
		errs = append(errs, fmt.Errorf("%s: runs robotstat %s, want analyze", where, inv.sub))
	}
	if inv.flags["shard"] != "auto" {
		errs = append(errs, fmt.Errorf("%s: --shard is %q, want auto (the engine gives each task its index)", where, inv.flags["shard"]))
	}
	out := inv.flags["out"]
	if !strings.HasPrefix(out, "/") {
		errs = append(errs, fmt.Errorf("%s: --out %q is not an absolute path on the shared storage", where, out))
	}
	if len(inv.args) == 0 {
		errs = append(errs, fmt.Errorf("%s: analyze has no input (without one it reads the embedded sample)", where))
	}
	return out, errors.Join(errs...)
}

// checkSites checks the sites step's command and returns its folder.
func checkSites(where string, argv []string) (string, error) {
	inv, err := parseInvocation(argv)
	if err != nil {
		return "", fmt.Errorf("%s: %w", where, err)
	}
	if inv.sub != "sites" || len(inv.args) != 1 {
		return "", fmt.Errorf("%s: command %q, want robotstat sites OUT", where, argv)
	}
	return inv.args[0], nil
}

// underMount returns out relative to mount, or false when out is not
// below it.
func underMount(out, mount string) (string, bool) {
	rel, ok := strings.CutPrefix(path.Clean(out), strings.TrimSuffix(path.Clean(mount), "/"))
	if !ok || (rel != "" && !strings.HasPrefix(rel, "/")) {
		return "", false
	}
	return rel, true
}

// decodeAPI decodes JSON into v, an AWS SDK input type, as the AWS CLI's
// --cli-input-json reads it: every key must name a member of the type,
// spelled exactly as the service model does (the SDK's Go field name with
// a lower-case first letter; encoding/json alone would accept any case).
func decodeAPI(name string, data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	var raw any
	if err := json.Unmarshal(data, &raw); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return keyCase(name, raw, reflect.TypeOf(v))
}

func keyCase(at string, raw any, t reflect.Type) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Struct:
		obj, ok := raw.(map[string]any)
		if !ok {
			return nil
		}
		var errs []error
		for key, val := range obj {
			f, ok := t.FieldByNameFunc(func(n string) bool { return strings.EqualFold(n, key) })
			if !ok {
				continue // DisallowUnknownFields has reported it
			}
			if want := strings.ToLower(f.Name[:1]) + f.Name[1:]; key != want {
				errs = append(errs, fmt.Errorf("%s: key %q: the API calls it %q", at, key, want))
				continue
			}
			errs = append(errs, keyCase(at+"."+key, val, f.Type))
		}
		return errors.Join(errs...)
	case reflect.Slice:
		list, _ := raw.([]any)
		var errs []error
		for i, val := range list {
			errs = append(errs, keyCase(fmt.Sprintf("%s[%d]", at, i), val, t.Elem()))
		}
		return errors.Join(errs...)
	case reflect.Map:
		obj, _ := raw.(map[string]any)
		var errs []error
		for key, val := range obj { // keys are the caller's (parameters, tags)
			errs = append(errs, keyCase(at+"."+key, val, t.Elem()))
		}
		return errors.Join(errs...)
	}
	return nil
}
