"""Scripted people: Slack users the engine speaks for, who reveal what they know only when asked.

    cast = build_people(scene.people, ctx)   # people.build: once per world image, names resolved
    attach(world, cast)                      # people.engine: in every new live world

`models` is the file format, `cast` the resolved description, `engine` the rules (what they learn,
share, decide and say, how they answer the agent's invitations, and when), `hours` working hours, `names`
and `hearing` who hears a message and whom it is put to, `phrases`, `understanding` and `synonyms` what a
question asks for, `replies` the templates, `wording` the optional model wording, `understanding_model` the
optional model understanding, `narrow` `validate`'s warnings. docs/people.md describes the behaviour.
"""
