package sandbox

import "net/http"

// SetParseHook makes sb call hook at the end of each request's body
// parsing. Set it before serving.
func SetParseHook(sb *Sandbox, hook func(*http.Request)) { sb.parseHook = hook }

// HTTPServer returns the http.Server that s runs.
func HTTPServer(s *Server) *http.Server { return s.srv }
