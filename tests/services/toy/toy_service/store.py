"""The toy vendor's collections."""

USERS = "toy.users"
ITEMS = "toy.items"
BOXES = "toybox.boxes"
