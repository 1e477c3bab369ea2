package clients

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/spf13/afero"
)

func TestRecordJSON(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, data, out string }{
		{`{"project":"/p","hook":{"file":"f"},"imports":[1],"created":["/p/a"]}`, `{"hook":{"file":"f"},"imports":[1]}`, ""},
		{`{"project":"/p"}`, `{}`, ""},
		{`{"created":["/p/a"],"b":2,"project":"/p","a":1}`, `{"b":2,"a":1}`, `{"project":"/p","b":2,"a":1,"created":["/p/a"]}`},
		// encoding/json matches keys regardless of case: so does the record.
		{`{"Project":"/p","CREATED":["/x"],"a":1}`, `{"a":1}`, `{"project":"/p","a":1,"created":["/x"]}`},
		{`{"project":"/a<b>"}`, `{}`, `{"project":"/a\u003cb\u003e"}`},
	} {
		var r Record
		if err := json.Unmarshal([]byte(tc.in), &r); err != nil {
			t.Fatalf("%s: %v", tc.in, err)
		}
		if string(r.Data) != tc.data {
			t.Errorf("%s: data %s, want %s", tc.in, r.Data, tc.data)
		}
		out, err := json.Marshal(r)
		if want := tc.out; err != nil || want == "" && string(out) != tc.in || want != "" && string(out) != want {
			t.Errorf("%s: marshalled %s (%v)", tc.in, out, err)
		}
	}
	var rs []Record
	if err := json.Unmarshal([]byte(`[null, {"project": "/p"}]`), &rs); err != nil || len(rs) != 2 || rs[0].Project != "" || rs[1].Project != "/p" {
		t.Fatalf("%+v %v", rs, err)
	}
	for _, bad := range []string{`[1]`, `["x"]`, `[{"project": 1}]`, `[{"created": "x"}]`} {
		if err := json.Unmarshal([]byte(bad), &rs); err == nil {
			t.Errorf("%s decoded", bad)
		}
	}
}

func TestRecordEncode(t *testing.T) {
	t.Parallel()
	r := Record{Project: "/p"}
	if err := r.Encode([]int{1}); err == nil {
		t.Fatal("an array was taken for the client's record")
	}
	var v struct{ A int }
	if err := r.Decode(&v); err != nil || v.A != 0 {
		t.Fatalf("decoding no data: %v %+v", err, v)
	}
	if err := r.Encode(struct{ A int }{3}); err != nil || r.Decode(&v) != nil || v.A != 3 {
		t.Fatalf("round trip: %v %+v", err, v)
	}
}

func TestKeepCreated(t *testing.T) {
	t.Parallel()
	r := Record{Created: []string{"/p/.c", "/h/.c", "/etc/passwd", "/p/.c/s.json"}}
	dropped := r.KeepCreated([]string{"/p/.c/s.json", "/p/.c"}, []string{"/h/.c"})
	if !slices.Equal(r.Created, []string{"/p/.c", "/p/.c/s.json"}) || !slices.Equal(dropped, []string{"/etc/passwd"}) {
		t.Fatalf("kept %q, dropped %q", r.Created, dropped)
	}
}

func TestShow(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ project, home, path, want string }{
		{"/h/p", "/h", "/h/p/CLAUDE.md", "CLAUDE.md"},
		{"/h/p", "/h", "/h/.claude/CLAUDE.md", "~/.claude/CLAUDE.md"},
		{"/p", "/p/home", "/p/home/.claude", "~/.claude"},
		{"/p", "", "/srv/x", "/srv/x"},
	} {
		if got := (Env{Project: tc.project, Home: tc.home}).Show(tc.path); got != tc.want {
			t.Errorf("Show(%q) with project %q, home %q = %q, want %q", tc.path, tc.project, tc.home, got, tc.want)
		}
	}
}

func TestOnPath(t *testing.T) {
	t.Parallel()
	fsys := afero.NewMemMapFs()
	afero.WriteFile(fsys, "/bin/wake", nil, 0o755)
	afero.WriteFile(fsys, "/plain/wake", nil, 0o644)
	afero.WriteFile(fsys, "/cwd/rel/wake", nil, 0o755)
	fsys.MkdirAll("/dir/wake", 0o755)
	for _, tc := range []struct {
		path string
		want bool
	}{
		{"", false},
		{"/nowhere:/dir:/plain", false},
		{"/nowhere:/bin", true},
		{"rel", true},
		{"::/plain", false},
	} {
		if got := onPath(fsys, tc.path, "/cwd", "wake"); got != tc.want {
			t.Errorf("PATH=%q: %v, want %v", tc.path, got, tc.want)
		}
	}
}

// FuzzRecord: any record that decodes encodes as one JSON object that
// decodes to the same record.
func FuzzRecord(f *testing.F) {
	for _, s := range []string{`{"project":"/p","hook":{"file":"f"},"created":["/p/a"]}`, `null`, `{}`, `{"Project":"x","project":"y"}`, `{"a":1,"a":2}`, `{"created":null}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var r Record
		if json.Unmarshal([]byte(s), &r) != nil {
			return
		}
		out, err := json.Marshal(r)
		if err != nil || !json.Valid(out) {
			t.Fatalf("%q: marshalled %q (%v)", s, out, err)
		}
		if len(r.Data) == 0 {
			r.Data = []byte("{}") // a null record: no members
		}
		var back Record
		if err := json.Unmarshal(out, &back); err != nil || back.Project != r.Project || !slices.Equal(back.Created, r.Created) || string(back.Data) != string(r.Data) {
			t.Fatalf("%q: through %s came back %+v (%v), want %+v", s, out, back, err, r)
		}
	})
}

func TestMCPClientNames(t *testing.T) {
	for name, want := range map[string]string{"claude-code": "claude", "codex-mcp-client": "codex", "codex-vscode": "codex", "opencode": "opencode", "cursor": "", "": ""} {
		if got := MCPClient(name); got != want {
			t.Errorf("MCPClient(%q) = %q, want %q", name, got, want)
		}
	}
}
