// The IR excerpts of docs/pipeline.md are what softmax-opt prints today.
// On failure the output shows a unified diff per excerpt; after a deliberate
// change to the compiler, run
//   scripts/docs-excerpts.py --update --softmax-opt build/bin/softmax-opt --root .
// and reread the prose around the excerpts that changed.
//
// RUN: %python %examples/../scripts/docs-excerpts.py --check --softmax-opt softmax-opt --root %examples/..
