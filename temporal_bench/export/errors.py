"""The export's one error: a task folder that cannot be written as asked."""


class ExportError(RuntimeError):
    """The task folder cannot be written as asked; the message names the file and line, and the fix."""
