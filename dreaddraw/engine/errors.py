"""The one error the engine raises for a refused decision."""


class IllegalDecision(Exception):
    """A decision the rules do not allow. `rule` is the DD rule number that forbids it.

    The engine validates before it changes anything, so the state is unchanged when this is raised.
    """

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.message = message
