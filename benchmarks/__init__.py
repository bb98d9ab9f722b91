"""Speed and accuracy measurements, one module per area: `python -m benchmarks.<area>`."""
