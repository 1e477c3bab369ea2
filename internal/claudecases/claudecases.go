// Package claudecases holds the Claude Code settings files the tests of
// the settings splicing and of install and uninstall both run against.
package claudecases

// Settings are settings files as users have them. Each must survive
// install and uninstall byte for byte.
var Settings = []struct{ Name, Src string }{
	{"no file", ""},
	{"a newline", "\n"},
	{"whitespace", "  \n\t\n"},
	{"CRLF whitespace", "\r\n\r\n"},
	{"empty object", "{}"},
	{"empty object with newline", "{}\n"},
	{"empty object, space", "{ }"},
	{"empty object, two lines", "{\n}"},
	{"empty object, indented closer", "{ \n}"},
	{"empty hooks", `{"hooks": {}}`},
	{"empty hooks, indented", "{\n    \"hooks\": {}\n}\n"},
	{"empty hooks on two lines", "{\n  \"hooks\": {\n  }\n}\n"},
	{"empty SessionStart", `{"hooks": {"SessionStart": []}}`},
	{"empty SessionStart, tabs", "{\n\t\"hooks\": {\n\t\t\"SessionStart\": [\n\t\t]\n\t}\n}\n"},
	{"empty SessionStart with spaces inside", "{\"hooks\": {\"SessionStart\": [ \t ]}, \"x\": 1}\n"},
	{"other settings", `{
  "model": "opus",
  "permissions": {
    "allow": ["Bash(go test:*)", "Read(~/notes/**)"],
    "deny": []
  },
  "env": {"FOO": "1 \u00e9 \"quoted\""}
}
`},
	{"other hooks, four spaces", `{
    "hooks": {
        "PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "audit.sh"}]}
        ]
    },
    "includeCoAuthoredBy": false
}
`},
	{"own SessionStart hook, tabs", "{\n\t\"hooks\": {\n\t\t\"SessionStart\": [\n\t\t\t{\n\t\t\t\t\"hooks\": [{\"type\": \"command\", \"command\": \"echo hi\"}]\n\t\t\t}\n\t\t]\n\t}\n}\n"},
	{"hooks and matchers around SessionStart", `{
  "hooks": {
    "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "audit.sh"}]}],
    "SessionStart": [
      {"matcher": "startup", "hooks": [{"type": "command", "command": "echo start"}]},
      {"matcher": "compact", "hooks": [{"type": "command", "command": "echo compact", "timeout": 5}]}
    ],
    "Stop": [{"hooks": [{"type": "command", "command": "say done"}]}]
  }
}`},
	{"compact", `{"a":[1,2.5e10,null,true],"hooks":{"Stop":[]}}`},
	{"numbers beyond float64", "{\"big\": 1e400, \"neg\": -0, \"e\": 1E+2, \"tiny\": 0.0000001, \"under\": -1.5e-400}\n"},
	{"no trailing newline, CRLF", "{\r\n  \"theme\": \"dark\"\r\n}"},
	{"CRLF", "{\r\n  \"theme\": \"dark\",\r\n  \"hooks\": {\r\n    \"Stop\": []\r\n  }\r\n}\r\n"},
	{"CRLF, tabs", "{\r\n\t\"hooks\": {\"SessionStart\": [{\"hooks\": []}]}\r\n}\r\n"},
	{"CRLF, empty hooks on two lines", "{\r\n  \"hooks\": {\r\n  }\r\n}\r\n"},
	{"CRLF, empty SessionStart", "{\r\n\t\"hooks\": {\"SessionStart\": []}\r\n}\r\n"},
	{"CRLF, empty object", "{\r\n}\r\n"},
	{"duplicate hooks keys", `{"hooks": {"Stop": []}, "hooks": {}}`},
}
