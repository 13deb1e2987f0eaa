"""What runs a build."""
