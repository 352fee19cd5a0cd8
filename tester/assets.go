package tester

import _ "embed"

// The WebAssembly module and its loader, built by go generate from
// tester/wasm (see genwasm). They are committed so that robotstat builds
// without a js/wasm toolchain step; TestWasmUpToDate fails when the sources
// change without them.
//
//go:generate go run ./genwasm

//go:embed robotstat.wasm.gz
var wasmGz []byte

//go:embed wasm_exec.js
var wasmExecJS string

//go:embed robotstat.wasm.stamp
var wasmStamp []byte

// The page's own parts, hand-written: the template, its style and the
// script that reads the inputs and the fragment and renders the module's
// JSON.
var (
	//go:embed page.html
	pageHTML string
	//go:embed page.css
	pageCSS string
	//go:embed page.js
	pageJS string
)
