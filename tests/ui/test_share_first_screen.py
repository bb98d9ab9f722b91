"""With `--share`, the first screen says the table's address once, and the region that keeps it stays below the
table, never between an answer and the table (issue 106, item 6: the address showed twice on the first screen, and
the sharing lines stood under every answer)."""

from __future__ import annotations

import asyncio

from tests.fake_speaker import Heard

PATIENCE = 60


def test_the_address_shows_once_and_its_region_stays_below_the_table(make_app):
    app = make_app(Heard(), "--share", "127.0.0.1:0")

    def screen() -> list[tuple[str, str]]:
        return [(str(widget.id), str(widget.render())) for widget in app.screen.query("*") if widget.display]

    async def scenario() -> None:
        async with app.run_test(size=(110, 70)) as pilot:
            for _ in range(400):  # the server starts in a worker as the app opens; its answer follows
                if app.share.link.server is not None and app.share.link.server.origin in str(
                    app.query_one("#answer").render()
                ):
                    break
                await pilot.pause(0.05)
            await pilot.pause()
            origin = app.share.link.server.origin
            first = screen()
            assert sum(text.count(origin) for _, text in first) == 1, first
            await pilot.press(*"tally", "enter")
            await pilot.pause()
            later = screen()
            table = [(name, text) for name, text in later if name != "history-text"]  # (the earlier answers: review)
            assert sum(text.count(origin) for _, text in table) == 1, later  # in the region again, kept at hand
            order = [name for name, _ in later]
            assert order.index("share") > order.index("stables") > order.index("answer"), order

    asyncio.run(asyncio.wait_for(scenario(), PATIENCE * 2))
