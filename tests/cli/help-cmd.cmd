help
name
