// Command bpegen writes the BPE tables that package budget embeds, one file
// per encoding, from tiktoken-go-loader's offline tables: run it with
// `go generate ./budget` after upgrading the loader, and commit its output.
// TestTablesMatchLoader fails while the committed tables differ from the
// loader's in any rank.
//
// A table is the encoding's tokens in rank order (ranks are dense, 0 to
// n-1), with nothing to parse at run time but varints:
//
//	"wakebpe1"                 magic
//	uvarint n                  number of tokens
//	uvarint size               total bytes of the tokens
//	n × uvarint                each token's length, in rank order
//	size bytes                 the tokens, concatenated in rank order
//	uint32 little-endian       CRC-32 (Castagnoli) of everything before it
package main

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"os"

	loader "github.com/pkoukk/tiktoken-go-loader"
)

func main() {
	for _, name := range []string{"cl100k_base", "o200k_base"} {
		data, err := table(name)
		if err == nil {
			err = os.WriteFile(name+".bpe", data, 0o644)
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "bpegen: %s: %v\n", name, err)
			os.Exit(1)
		}
	}
}

// table returns the encoded table of the named encoding.
func table(name string) ([]byte, error) {
	ranks, err := loader.NewOfflineLoader().LoadTiktokenBpe(name + ".tiktoken")
	if err != nil {
		return nil, err
	}
	tokens := make([]string, len(ranks))
	size := 0
	for tok, r := range ranks {
		if r < 0 || r >= len(tokens) || tokens[r] != "" || tok == "" {
			return nil, fmt.Errorf("rank %d of %q: ranks are not dense 0..%d over non-empty tokens", r, tok, len(tokens)-1)
		}
		tokens[r] = tok
		size += len(tok)
	}
	var b bytes.Buffer
	b.WriteString("wakebpe1")
	b.Write(binary.AppendUvarint(nil, uint64(len(tokens))))
	b.Write(binary.AppendUvarint(nil, uint64(size)))
	for _, tok := range tokens {
		b.Write(binary.AppendUvarint(nil, uint64(len(tok))))
	}
	for _, tok := range tokens {
		b.WriteString(tok)
	}
	sum := crc32.Checksum(b.Bytes(), crc32.MakeTable(crc32.Castagnoli))
	b.Write(binary.LittleEndian.AppendUint32(nil, sum))
	return b.Bytes(), nil
}
