"""The start-up floor: the smallest Typer app that takes a string and prints one rich line."""

import typer
from rich import print as rich_print

app = typer.Typer(add_completion=False)


@app.command()
def hello(name: str) -> None:
    """Greet NAME."""
    rich_print(f"[bold]Hello[/bold] {name}")


if __name__ == "__main__":
    app()
