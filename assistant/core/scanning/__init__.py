"""The scanner's pure rules: what a payload means, which sightings to announce, aiming, exposure."""
