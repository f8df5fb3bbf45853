"""File > Export: an Alamo model (.alo) and one .ala per action."""

CLASSES = ()


def register_menus():
    pass


def unregister_menus():
    pass
