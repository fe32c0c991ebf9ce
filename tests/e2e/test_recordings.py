"""Each recorded run (tests/recorded/) made again through the real harness equals its checked-in files value for
value, apart from when and where it ran (tests/recorded/record.py ``VOLATILE_KEYS``): a change that changes what a
recorded run writes fails here, naming the recording and the first differing value of each file, until
``python -m tests.recorded.record NAME`` writes it again."""

import pytest

from tests.recorded import all_recordings
from tests.recorded.record import differences, regenerate


@pytest.mark.parametrize("name", sorted(all_recordings()))
def test_a_recording_is_what_the_harness_writes_today(name, tmp_path):
    recorded, regenerated = regenerate(name, tmp_path / "work")
    found = differences(recorded, regenerated)
    assert not found, f"the recording {name} is stale (python -m tests.recorded.record {name}):\n" + "\n".join(found)
