"""The terminal floor: a bare questionary loop asking N questions shaped like the referee's (a
question with numbered options, an answer checked when given, a line printed after it).

    python benchmarks/floor_prompt.py N
"""

import sys

import questionary


def main() -> None:
    count = int(sys.argv[1])
    for number in range(1, count + 1):
        answer = questionary.text(
            f"Round {number}: Ann plays which card? [1=noble 2=guild 3=legion 4=peasant 5=whispers 6=no card]",
            qmark="?",
        ).unsafe_ask()
        print(f"  > Ann answered {answer!r} to question {number}.")


if __name__ == "__main__":
    main()
