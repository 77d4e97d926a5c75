"""Space-filling draws in sweep files: a Latin hypercube puts one value in each equal
slice of the range, the first 2^k Sobol' points one in each of 2^k slices (their
definitions); both are seeded, and their bad requests are one line."""
from __future__ import annotations

import pytest

from balance3d.tune.sweep import SweepError, load_sweep

HEAD = '[sweep]\nscene = "tilted"\nexperiment = "box_drop"\nseed = 7\n'
LOW, HIGH = 0.2, 0.8


def sweep_with(tmp_path, spec: str):
    path = tmp_path / "s.toml"
    path.write_text(HEAD + f'[parameters]\n"materials.wood.friction" = {spec}\n')
    return path


def slices(values, count):
    """The index of the equal slice of [LOW, HIGH) each value falls in."""
    return sorted(int((v - LOW) / (HIGH - LOW) * count) for v in values)


@pytest.mark.parametrize("name, samples", [("latin_hypercube", 10), ("sobol", 16)])
def test_space_filling_draws_put_one_value_in_each_slice(tmp_path, box_drop, name, samples):
    spec = f'{{distribution = "{name}", low = {LOW}, high = {HIGH}, samples = {samples}}}'
    path = sweep_with(tmp_path, spec)
    values = load_sweep(path).parameters["materials.wood.friction"]
    assert len(values) == samples and all(LOW <= v < HIGH for v in values)
    assert slices(values, samples) == list(range(samples))
    # seeded: the same file draws the same values, another seed others
    assert load_sweep(path).parameters["materials.wood.friction"] == values
    path.write_text(path.read_text().replace("seed = 7", "seed = 8"))
    assert load_sweep(path).parameters["materials.wood.friction"] != values


@pytest.mark.parametrize("spec, words", [
    ('{distribution = "sobol", low = 0.2, high = 0.8, samples = 10}',
     'parameters."materials.wood.friction": sobol draws take a power of 2 samples'),
    ('{distribution = "latin_hypercube", low = 0.8, high = 0.2, samples = 4}',
     'parameters."materials.wood.friction": empty range: low 0.8 must be below high 0.2'),
    ('{distribution = "sobol", low = 0.2, samples = 4}',
     'parameters."materials.wood.friction".high: missing'),
])
def test_bad_space_filling_draws_are_one_line(tmp_path, box_drop, spec, words):
    path = sweep_with(tmp_path, spec)
    with pytest.raises(SweepError) as err:
        load_sweep(path)
    assert str(err.value).startswith(f"{path}: {words}") and "\n" not in str(err.value)
