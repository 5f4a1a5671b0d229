gte
