package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// responsesStub answers the OpenAI Responses API on loopback, streamed as
// Codex reads it, and records every request body. Each request takes the
// next scripted reply; with none left it says "stub reply".
type responsesStub struct {
	*httptest.Server
	mu      sync.Mutex
	bodies  [][]byte
	replies [][]any
	// tokens are the total tokens each reply reports using, in turn;
	// with none left it reports 0.
	tokens []int
}

func newResponsesStub(t *testing.T) *responsesStub {
	s := &responsesStub{}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

// usage sets the total tokens the next replies report using, one a
// reply: past Codex's model_auto_compact_token_limit, a reply that calls
// a tool makes Codex compact the thread before it goes on.
func (s *responsesStub) usage(tokens ...int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tokens = tokens
}

// script sets the output items of the next replies, one list a reply.
func (s *responsesStub) script(replies ...[]any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.replies = replies
}

func assistantMessage(id, text string) map[string]any {
	return map[string]any{"type": "message", "role": "assistant", "id": id,
		"content": []any{map[string]any{"type": "output_text", "text": text}}}
}

func (s *responsesStub) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	if r.Method != http.MethodPost || r.URL.Path != "/v1/responses" {
		http.NotFound(w, r)
		return
	}
	s.mu.Lock()
	s.bodies = append(s.bodies, body)
	n := len(s.bodies)
	items := []any{assistantMessage(fmt.Sprintf("msg_%d", n), "stub reply")}
	if len(s.replies) > 0 {
		items, s.replies = s.replies[0], s.replies[1:]
	}
	total := 0
	if len(s.tokens) > 0 {
		total, s.tokens = s.tokens[0], s.tokens[1:]
	}
	s.mu.Unlock()
	w.Header().Set("Content-Type", "text/event-stream")
	id := fmt.Sprintf("resp_%d", n)
	events := []map[string]any{{"type": "response.created", "response": map[string]any{"id": id}}}
	for _, it := range items {
		events = append(events, map[string]any{"type": "response.output_item.done", "item": it})
	}
	events = append(events, map[string]any{"type": "response.completed", "response": map[string]any{"id": id,
		"usage": map[string]any{"input_tokens": total, "input_tokens_details": nil, "output_tokens": 0, "output_tokens_details": nil, "total_tokens": total}}})
	for _, ev := range events {
		data, _ := json.Marshal(ev)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", ev["type"], data)
	}
}

// responsesRequest is what the test reads of a request body.
type responsesRequest struct {
	Input []responsesItem `json:"input"`
}

type responsesItem struct {
	Type    string `json:"type"`
	Role    string `json:"role"`
	Content []struct {
		Text string `json:"text"`
	} `json:"content"`
}

// text is a message's text, its parts joined.
func (m responsesItem) text() string {
	var parts []string
	for _, c := range m.Content {
		parts = append(parts, c.Text)
	}
	return strings.Join(parts, "\n")
}

// requests decodes the requests received since the last take.
func (s *responsesStub) requests() []responsesRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []responsesRequest
	for _, b := range s.bodies {
		var r responsesRequest
		if json.Unmarshal(b, &r) == nil {
			out = append(out, r)
		}
	}
	return out
}

// take returns every string in the request bodies received since the
// last take, decoded from JSON, and forgets them.
func (s *responsesStub) take() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, body := range s.bodies {
		strs, _ := jsonStrings(body)
		out = append(out, strs...)
	}
	s.bodies = nil
	return out
}
