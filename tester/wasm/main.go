//go:build js && wasm

// Command wasm is package explain compiled to WebAssembly for the page
// robotstat tester writes (build it with go generate ./tester). It registers
// one JavaScript function,
//
//	robotstatExplain(requestJSON) -> replyJSON
//
// (explain.Explainer.ExplainJSON: a Request in, {"report": ...} or
// {"error": ...} out), calls robotstatReady() when the page defined it, and
// waits for calls.
//
// Run as "wasm -cases FILE" (under Node: node wasm_exec_node.js
// robotstat.wasm -cases FILE) it answers the cases in FILE instead, one JSON
// Report per line on stdout, and exits: how tester's TestWasmAnswersLikeNative
// holds this build to the native one.
package main

import (
	"fmt"
	"os"
	"syscall/js"

	"github.com/robotstat/robotstat/explain"
)

func main() {
	if len(os.Args) == 3 && os.Args[1] == "-cases" {
		if err := runCases(os.Args[2], os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "robotstat wasm:", err)
			os.Exit(2)
		}
		return
	}
	var x explain.Explainer
	js.Global().Set("robotstatExplain", js.FuncOf(func(_ js.Value, args []js.Value) (reply any) {
		if len(args) != 1 || args[0].Type() != js.TypeString {
			return `{"error":"robotstatExplain takes one string, a request in JSON"}`
		}
		// A panic here would end the Go program and every later call with
		// it; report it as this call's error instead.
		defer func() {
			if p := recover(); p != nil {
				x = explain.Explainer{}
				reply = fmt.Sprintf(`{"error":%q}`, fmt.Sprint("robotstat: internal error: ", p))
			}
		}()
		return string(x.ExplainJSON([]byte(args[0].String())))
	}))
	if ready := js.Global().Get("robotstatReady"); ready.Type() == js.TypeFunction {
		ready.Invoke()
	}
	select {}
}
