// compose-check loads docker-compose.yml with compose-go, the compose
// specification's reference loader (the library `docker compose` itself uses),
// so CI checks the file against the spec's JSON Schema, interpolation and
// cross-references without a Docker engine.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/compose-spec/compose-go/v2/cli"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: compose-check <docker-compose.yml>")
		os.Exit(2)
	}
	ctx := context.Background()
	opts, err := cli.NewProjectOptions(
		[]string{os.Args[1]},
		cli.WithOsEnv,
		cli.WithDotEnv,
		cli.WithConsistency(true),
		cli.WithResolvedPaths(true),
	)
	if err != nil {
		fail(err)
	}
	project, err := opts.LoadProject(ctx)
	if err != nil {
		fail(err)
	}
	fmt.Printf("compose-check: %s is valid: project %q, %d services, %d volumes\n",
		os.Args[1], project.Name, len(project.Services), len(project.Volumes))
}

func fail(err error) {
	fmt.Fprintf(os.Stderr, "compose-check: %v\n", err)
	os.Exit(1)
}
